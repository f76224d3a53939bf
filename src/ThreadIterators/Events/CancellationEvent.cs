using System;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// <see cref="Event.WhenCanceled(CancellationToken)"/>: completes once its token is canceled. Each wait registers a
/// callback with the token, which makes the thread ready (or fires its choice's branch) from whatever OS thread
/// cancels the token; the body never runs there.
/// </summary>
/// <remarks>
/// The worker running the bound thread parks, enlists and withdraws. Three parties may try to take
/// <see cref="_waiter"/>: the token's callback (any OS thread, inside <c>Cancel</c>), a stop or a disposal (any thread),
/// and a choice's withdrawal (the thread's worker); an exchange or a compare-and-swap decides, so exactly one does.
/// </remarks>
internal sealed class CancellationEvent : Event, IChoosable
{
    /// <summary>Left in <see cref="_waiter"/> by the callback: the token has been canceled.</summary>
    private static readonly object s_canceled = new();

    /// <summary>The callback every wait registers; its state is the event, so a registration allocates nothing of ours.</summary>
    private static readonly Action<object?> s_onCanceled = state => ((CancellationEvent)state!).OnCanceled();

    /// <summary>The token waited on.</summary>
    private readonly CancellationToken _token;

    /// <summary>The green thread bound to the event by its first yield.</summary>
    private GreenThread? _owner;

    /// <summary>
    /// What the callback wakes: the parked thread, or the <see cref="ChoiceTicket"/> of a choice waiting on the token;
    /// null while nothing waits; <see cref="s_canceled"/> once a callback has run. A wait publishes it only after
    /// storing its registration, so whoever takes it back may read <see cref="_registration"/>.
    /// </summary>
    private object? _waiter;

    /// <summary>The registration of the current (or last) wait. Written by the worker parking the thread.</summary>
    private CancellationTokenRegistration _registration;

    internal CancellationEvent(CancellationToken token) => _token = token;

    /// <inheritdoc/>
    public override string ToString() => _token.IsCancellationRequested
        ? "Event.WhenCanceled(a canceled token)"
        : _token.CanBeCanceled ? "Event.WhenCanceled(token)" : "Event.WhenCanceled(a token that is never canceled)";

    // In a trace, whether the token can be canceled, never whether it is: that changes on another OS thread.
    internal override void DescribeWait(WaitDescription into)
    {
        if (into.ForTrace)
        {
            into.Trace(_token.CanBeCanceled ? "Event.WhenCanceled(token)" : "Event.WhenCanceled(a token that is never canceled)");
            return;
        }

        into.Say($"a cancellation token to be canceled, outside the scheduler ({this})").Outside = true;
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        Bind(thread);
        return Register(thread, thread.Scheduler.SeedsOutsideWork) ? EventOutcome.Parked : EventOutcome.Continue;
    }

    // Woken only by the callback, which runs once the token is canceled: nothing to take.
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    internal override void Abandon(GreenThread thread) => TryTakeBack(thread);

    internal override bool TryInterrupt(GreenThread thread) => TryTakeBack(thread);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => TryCompleteNow(thread);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) =>
        Register(new ChoiceTicket(branch, generation), thread.Scheduler.SeedsOutsideWork);

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
        // Chosen or not, the registration goes. Unregister does not wait for a callback that is running (Dispose would,
        // blocking this worker on the canceling thread): such a callback either finds the ticket gone or took it
        // first, and then its fire reaches a wait that is over, or the branch it chose.
        if (Volatile.Read(ref _waiter) is ChoiceTicket ticket && Interlocked.CompareExchange(ref _waiter, null, ticket) == ticket)
        {
            _registration.Unregister();
        }
    }

    // Completes as the look does.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => TryCompleteNow(thread);

    /// <summary>Completes the wait if the token is canceled already (not in an explored run that seeds outside work: there the callback brings it). The bound thread's worker.</summary>
    private EventOutcome TryCompleteNow(GreenThread thread)
    {
        Bind(thread);
        return _token.IsCancellationRequested && !thread.Scheduler.SeedsOutsideWork ? EventOutcome.Continue : EventOutcome.Parked;
    }

    /// <summary>
    /// Registers <paramref name="waiter"/> to be woken when the token is canceled; false, with nothing left
    /// registered, if it already is. A token that can never be canceled registers nothing and leaves the waiter to
    /// wait for good. <paramref name="seeded"/> (an explored run that seeds outside work): a token canceled already
    /// still takes the waiter, and the callback runs on a pool thread, so the wake-up comes from outside and the run
    /// takes it in a seeded order. The worker running the bound thread.
    /// </summary>
    private bool Register(object waiter, bool seeded)
    {
        if (_token.IsCancellationRequested)
        {
            return seeded && QueueCanceled(waiter);
        }

        if (_token.CanBeCanceled)
        {
            // Runs the callback right here if the token was canceled since the look above: it finds no waiter yet, leaves
            // the canceled mark, and the swap below fails.
            _registration = _token.UnsafeRegister(s_onCanceled, this);
        }

        // Published after the registration is stored, with a full fence: from here the callback or a stop may take it.
        if (Interlocked.CompareExchange(ref _waiter, waiter, null) is null)
        {
            return true;
        }

        // Canceled since the look above: the callback ran here and found no waiter. Seeded, the wake-up still comes
        // from outside, as if the cancel had come a moment later.
        return seeded && QueueCanceled(waiter);
    }

    /// <summary>Takes <paramref name="waiter"/> for a token already canceled and wakes it from a pool thread. True.</summary>
    private bool QueueCanceled(object waiter)
    {
        // Nothing else holds the waiter slot now: the last wait's callback has run, and no stop can take a waiter not
        // yet published.
        _registration = default;
        Volatile.Write(ref _waiter, waiter);
        ThreadPool.UnsafeQueueUserWorkItem(s_onCanceled, this, preferLocal: false);
        return true;
    }

    /// <summary>Takes the parked <paramref name="thread"/> back from the callback and unregisters; true if this call took it. Any thread.</summary>
    private bool TryTakeBack(GreenThread thread)
    {
        if (Interlocked.CompareExchange(ref _waiter, null, thread) != thread)
        {
            return false;
        }

        _registration.Unregister();
        return true;
    }

    /// <summary>The token's callback, on the canceling OS thread: queues the parked thread on its own scheduler, or fires the branch.</summary>
    private void OnCanceled()
    {
        switch (Interlocked.Exchange(ref _waiter, s_canceled))
        {
            case GreenThread thread:
                thread.Scheduler.Ready(thread);
                break;
            case ChoiceTicket ticket:
                ticket.Fire();
                break;
        }
    }

    private void Bind(GreenThread thread)
    {
        if (_owner == thread)
        {
            return;
        }

        var owner = Interlocked.CompareExchange(ref _owner, thread, null);
        if (owner is not null && owner != thread)
        {
            throw new InvalidOperationException($"{thread} yielded {this}, which belongs to {owner}; the event is bound to the first green thread that yields it, so give each thread its own Event.WhenCanceled(token).");
        }
    }
}
