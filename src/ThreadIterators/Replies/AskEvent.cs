using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to wait for the answer to a request it sent with
/// <see cref="MailboxAsking.extension{T}(Mailbox{T}).Ask{TReply}"/> (Erlang's <c>gen_server:call</c>, Akka.NET's
/// <c>Ask</c>): it completes when the server replies, when the server thread ends first, or when the timeout passes,
/// whichever comes first. Then <see cref="Value"/> returns the reply or throws why there is none.
/// </summary>
/// <remarks>
/// <para>
/// The request was sent, and the timeout started, when the ask was made; yield the event right away, or as a
/// branch of a <see cref="Choice"/> (to serve other messages while the answer is on its way), as often as needed:
/// once complete, it completes at once. It belongs to the thread that made it.
/// </para>
/// <para>
/// An answer that comes after the ask has completed without it goes to the dead letters
/// (<see cref="DeadLetterReason.LateReply"/>), never into a mailbox of the caller. So does one that comes after the
/// caller was stopped, or its scheduler disposed, while it waited here. An answer that comes in time is the
/// caller's, read or not.
/// </para>
/// </remarks>
/// <typeparam name="T">The reply's type.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class AskEvent<T> : Event, IReplyListener, IChoosable
{
    /// <summary>Left in <see cref="_waiter"/> once the outcome is decided: every later wait completes at once.</summary>
    private static readonly object s_decided = new();

    /// <summary>The thread that asked; the only one that may yield the event.</summary>
    private readonly GreenThread _owner;

    /// <summary>
    /// What the decision wakes: the parked owner, or the <see cref="ChoiceTicket"/> of a choice waiting on the ask;
    /// null while nothing waits; <see cref="s_decided"/> once decided. An exchange or a compare-and-swap decides who
    /// takes it: the decider, a stop or a disposal, or a choice's withdrawal.
    /// </summary>
    private object? _waiter;

    internal AskEvent(GreenThread owner, object target, TimeSpan timeout)
    {
        _owner = owner;
        Pending = new PendingReply<T>(this, target, owner, owner.Scheduler, timeout);
    }

    /// <summary>Gets the ask's shared state, which the request's reply target answers.</summary>
    internal PendingReply<T> Pending { get; }

    /// <summary>
    /// Gets the reply, or throws why there is none: the exception the server answered with
    /// (<see cref="ReplyTo{T}.Fail"/>, rethrown with its stack trace), a <see cref="ServerEndedException"/> if the
    /// server ended first, or a <see cref="TimeoutException"/> if the timeout passed first. May be read again; it
    /// throws the same exception every time.
    /// </summary>
    /// <exception cref="InvalidOperationException">The ask has not completed: yield it first.</exception>
    public T Value
    {
        get
        {
            CheckDecided(nameof(Value));
            return Pending.GetResult();
        }
    }

    /// <summary>Gets a value indicating whether the ask completed because its timeout passed first.</summary>
    public bool TimedOut => Pending.Outcome == ReplyOutcome.TimedOut;

    /// <summary>Gets what <see cref="Value"/> throws, or null if the ask has a reply or has not completed.</summary>
    public Exception? Exception => Pending.IsDecided ? Pending.Error : null;

    /// <inheritdoc/>
    public override string ToString() => $"AskEvent<{TypeNames.Of<T>()}> of {Pending.Describe()} ({Pending.OutcomeText})";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name, and once it completed, the reply or why there is none.
        if (into.ForTrace)
        {
            if (into.Completed)
            {
                into.Gave(Pending.Outcome == ReplyOutcome.Replied ? $" -> {Pending.GetResult()}" : $" -> {Pending.OutcomeText}");
            }

            return;
        }

        // The server watched since the ask; or, if the mailbox had no receiver then, its receiver now. A forwarded
        // request waits on no thread here: its answer comes from outside the scheduler.
        var server = Pending.Forwarded is not null ? null : Pending.Server ?? (Pending.Target as IDrained)?.Drainer;
        into.Outside |= Pending.Forwarded is not null;
        into.Say($"a reply: {Pending.Describe()} ({Pending.OutcomeText}{(Pending.Timeout == System.Threading.Timeout.InfiniteTimeSpan ? string.Empty : $", deadline {Pending.Timeout}")})").WaitsOn(server);
        into.Timer |= Pending.Timeout != System.Threading.Timeout.InfiniteTimeSpan;
    }

    /// <inheritdoc/>
    void IReplyListener.Completed()
    {
        switch (Interlocked.Exchange(ref _waiter, s_decided))
        {
            case GreenThread thread:
                thread.Scheduler.Ready(thread);
                break;
            case ChoiceTicket ticket:
                ticket.Fire();
                break;
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        CheckOwner(thread);
        return Interlocked.CompareExchange(ref _waiter, thread, null) is null ? EventOutcome.Parked : EventOutcome.Continue;
    }

    // Woken only by the decision: nothing to take.
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    internal override void Abandon(GreenThread thread) => TryTakeBack(thread, wakeIfDecided: false);

    internal override bool TryInterrupt(GreenThread thread) => TryTakeBack(thread, wakeIfDecided: true);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => IsDecided(thread);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) =>
        Interlocked.CompareExchange(ref _waiter, new ChoiceTicket(branch, generation), null) is null;

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
        // Chosen or not, the ticket goes; a decision that took it first has fired it, or is firing it, at a wait that
        // is over or at the branch chosen.
        if (Volatile.Read(ref _waiter) is ChoiceTicket ticket)
        {
            Interlocked.CompareExchange(ref _waiter, null, ticket);
        }
    }

    // A decision, once fired, stays: the look completes it.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => IsDecided(thread);

    /// <summary>Continue once the ask's outcome is decided, else Parked. The owner's worker.</summary>
    private EventOutcome IsDecided(GreenThread thread)
    {
        CheckOwner(thread);
        return Pending.IsDecided ? EventOutcome.Continue : EventOutcome.Parked;
    }

    /// <summary>
    /// Takes the parked owner back from the decision, for a stop or a disposal; true if this call took it. The owner
    /// then never reads a reply, so the ask is abandoned, and an answer that comes later is a dead letter.
    /// </summary>
    /// <remarks>
    /// The waiter is taken first, then the ask decided as abandoned. If another outcome was decided in between (a reply
    /// whose <see cref="ReplyTo{T}.Reply"/> has returned true, a timeout, the server's end), it is the owner's to see: the
    /// waiter goes back for that decision's <see cref="IReplyListener.Completed"/> to wake, or, for a stop, if that has
    /// already run and found no waiter, this call wakes the owner in its place; either way the stop finds the thread at
    /// its next wait, after it has read the answer. (Taking the waiter for good there lost a delivered reply: the caller
    /// ended without it and no dead letter was raised.) A disposal keeps the waiter taken: nothing runs the owner again.
    /// </remarks>
    private bool TryTakeBack(GreenThread thread, bool wakeIfDecided)
    {
        if (Interlocked.CompareExchange(ref _waiter, null, thread) != thread)
        {
            return false;
        }

        if (Pending.TryDecide(ReplyOutcome.Abandoned, default!, new OperationCanceledException($"{Pending.Describe()} was abandoned: the caller was stopped while it waited.")))
        {
            return true;
        }

        if (!wakeIfDecided)
        {
            // A disposal: nothing runs the owner again, so the waiter stays taken and the decision's Completed wakes
            // no thread of a disposed scheduler.
            return false;
        }

        if (Interlocked.CompareExchange(ref _waiter, thread, null) is not null)
        {
            // The decision's Completed found the waiter gone and did not wake it: wake it here, once.
            thread.Scheduler.Ready(thread);
        }

        return false;
    }

    private void CheckOwner(GreenThread thread)
    {
        if (thread != _owner)
        {
            throw new InvalidOperationException($"{thread} yielded {this}, which belongs to {_owner}: an ask is waited on by the thread that made it.");
        }
    }

    private void CheckDecided(string what)
    {
        if (!Pending.IsDecided)
        {
            throw new InvalidOperationException($"{what} of {this} was read before the ask completed: yield it first.");
        }
    }
}
