using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// The event one green thread yields to receive from a <see cref="SharedMailbox{T}"/>; after the thread resumes,
/// <see cref="Value"/> holds the message, or <see cref="IsCompleted"/> says the mailbox has ended. Obtain one per receiver from <see cref="SharedMailbox{T}.CreateReceiveEvent"/> and yield
/// it for every message.
/// </summary>
/// <remarks>The one green thread it is bound to, on whichever worker runs it.</remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
[DebuggerDisplay("Receive on {_mailbox,nq}")]
public sealed class SharedReceiveEvent<T> : Event, IChoosable, IMessageWait
{
    /// <summary>The mailbox this event receives from.</summary>
    private readonly SharedMailbox<T> _mailbox;

    /// <summary>The receiving thread's place among the parked receivers; made, and the event bound, when first yielded.</summary>
    private Waiter? _waiter;

    /// <summary>The message of the latest receive; default once the end was received.</summary>
    private T _value = default!;

    /// <summary>
    /// Whether a receive got the end. Set once and never cleared, since nothing follows the end; so a message costs
    /// no store here, and <see cref="Value"/> reads one flag.
    /// </summary>
    private bool _completed;

    internal SharedReceiveEvent(SharedMailbox<T> mailbox) => _mailbox = mailbox;

    /// <summary>Gets the message received by the latest receive.</summary>
    /// <exception cref="ChannelClosedException">
    /// The receive got the end of the completed mailbox, not a message (<see cref="IsCompleted"/>). The message names
    /// the mailbox; the inner exception is the error it was completed with, if any.
    /// </exception>
    public T Value
    {
        get
        {
            if (_completed)
            {
                Received.ThrowCompleted(this, _mailbox, _mailbox.CompletionError);
            }

            return _value;
        }
    }

    /// <summary>
    /// Gets a value indicating whether the latest receive got the end rather than a message: the mailbox was completed
    /// (<see cref="SharedMailbox{T}.Complete"/>) and every message sent before has been taken, by this receiver or
    /// another. It stays true: every later receive completes at once with the end.
    /// </summary>
    public bool IsCompleted => _completed;

    /// <summary>Gets the mailbox this event receives from.</summary>
    public SharedMailbox<T> Mailbox => _mailbox;

    /// <inheritdoc/>
    public override string ToString() => $"Receive on {_mailbox}";

    // In a trace, its name, and once it completed, the message it took.
    internal override void DescribeWait(WaitDescription into)
    {
        if (!into.ForTrace)
        {
            into.Say($"a message on {_mailbox} ({_mailbox.Count} queued)");
        }
        else if (into.Completed)
        {
            into.Gave(Received.TraceResult(_completed, _value));
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker) => Receive(WaiterFor(thread), worker);

    /// <inheritdoc/>
    bool IMessageWait.WaitsForMessage => true;

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => TryTakeNow(thread);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker)
    {
        var waiter = WaiterFor(thread);
        var ticket = _mailbox.Receivers.Add(waiter, branch, generation);

        // As a plain receive: counted in (a full fence), then a last look. A message (or the end) there, and the
        // withdrawal won: nothing registered. Lost: a send (or the end) released this waiter, and the branch is fired.
        return (_mailbox.IsEmpty && !_mailbox.IsDrained) || !waiter.TryWithdraw(ticket);
    }

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
        if (!chosen)
        {
            // The message a release woke this receiver for is not taken: the wake-up goes to the next receiver.
            PassOnIfWoken(_waiter!);
        }
    }

    // Another receiver may have taken the message this one was woken for: then the choice waits again.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => TryTakeNow(thread);

    /// <summary>Takes a message, or the end, if there is one, binding the event to <paramref name="thread"/>; Parked, with nothing taken, if not.</summary>
    private EventOutcome TryTakeNow(GreenThread thread)
    {
        WaiterFor(thread);
        if (_mailbox.TryTake(out var message))
        {
            Deliver(message);
            return EventOutcome.Continue;
        }

        if (_mailbox.IsDrained)
        {
            // The end completes the branch as a message would: the choice chooses it, and it reports the end.
            DeliverEnd();
            return EventOutcome.Continue;
        }

        return EventOutcome.Parked;
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        worker.Counters.WakeUps++;
        return Receive(_waiter!, worker);
    }

    internal override void Abandon(GreenThread thread)
    {
        // Woken for a message but disposed before it ran: another parked receiver gets the wake-up instead.
        if (_waiter is { } waiter)
        {
            PassOnIfWoken(waiter);
        }
    }

    // The waiter stays in the queue, withdrawn, until a release drops it; the message it waited for goes to another receiver.
    internal override bool TryInterrupt(GreenThread thread) => Volatile.Read(ref _waiter) is { } waiter && waiter.TryInterrupt(thread);

    /// <summary>Ends the waiter's wait; if a release woke it, that release goes to the next parked receiver.</summary>
    private void PassOnIfWoken(Waiter waiter)
    {
        if (!waiter.TryWithdraw() && (Volatile.Read(ref waiter.State) & Waiter.StateMask) == Waiter.Woken)
        {
            _mailbox.Receivers.Release(1);
        }
    }

    /// <summary>Gets this event's waiter, binding the event to <paramref name="thread"/> on its first use; refuses another thread.</summary>
    private Waiter WaiterFor(GreenThread thread)
    {
        var waiter = _waiter;
        if (waiter is null)
        {
            var created = Waiter.ForGreenThread(thread);
            waiter = Interlocked.CompareExchange(ref _waiter, created, null) ?? created;
        }

        if (waiter.Thread != thread)
        {
            throw new InvalidOperationException(
                $"{thread} yielded {this}, which belongs to {waiter.Thread}; each receiver of a shared mailbox calls CreateReceiveEvent() for its own event.");
        }

        return waiter;
    }

    // Deliver and DeliverEnd are methods, as ReceiveEvent's are, so that Receive stays small enough for the JIT to
    // inline into Park: written in place, they cost a direct call per receive.

    /// <summary>Stores a taken message for the body to read. The receiving thread.</summary>
    private void Deliver(T message)
    {
        Debug.Assert(!_completed, $"{this} delivered a message after the end: its completed mailbox took a send.");
        _value = message;
    }

    /// <summary>Records that the receive got the end of the completed mailbox. The receiving thread.</summary>
    private void DeliverEnd()
    {
        _completed = true;
        _value = default!;
    }

    private EventOutcome Receive(Waiter waiter, Worker worker)
    {
        while (true)
        {
            if (_mailbox.TryTake(out var message))
            {
                Deliver(message);
                return EventOutcome.Continue;
            }

            if (_mailbox.IsDrained)
            {
                DeliverEnd();
                return EventOutcome.Continue;
            }

            // Count in (a full fence), then look once more: a sender publishes its message and then reads the count,
            // and the take of a completed mailbox's last message (or the completion) gives its room back and then
            // reads it, so either this look sees the end or that release sees this receiver.
            var ticket = _mailbox.Receivers.Add(waiter);
            if ((_mailbox.IsEmpty && !_mailbox.IsDrained) || !waiter.TryWithdraw(ticket))
            {
                // Parked: a send wakes the thread (or already did, if the withdrawal lost; it may be running
                // elsewhere by now, so nothing here touches it again), and Resume takes again. Another receiver may
                // take the message first; then it parks again.
                worker.Counters.MailboxWaits++;
                return EventOutcome.Parked;
            }
        }
    }
}
