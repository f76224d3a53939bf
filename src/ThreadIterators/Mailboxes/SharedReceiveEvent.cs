using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The event one green thread yields to receive from a <see cref="SharedMailbox{T}"/>; after the thread resumes,
/// <see cref="Value"/> holds the message. Obtain one per receiver from <see cref="SharedMailbox{T}.CreateReceiveEvent"/> and yield
/// it for every message.
/// </summary>
/// <remarks>The one green thread it is bound to, on whichever worker runs it.</remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
[DebuggerDisplay("Receive on {_mailbox,nq}")]
public sealed class SharedReceiveEvent<T> : Event
{
    private readonly SharedMailbox<T> _mailbox;

    /// <summary>The receiving thread's place among the parked receivers; made, and the event bound, when first yielded.</summary>
    private Waiter? _waiter;

    internal SharedReceiveEvent(SharedMailbox<T> mailbox) => _mailbox = mailbox;

    /// <summary>Gets the message received by the latest completed receive.</summary>
    public T Value { get; private set; } = default!;

    /// <summary>Gets the mailbox this event receives from.</summary>
    public SharedMailbox<T> Mailbox => _mailbox;

    /// <inheritdoc/>
    public override string ToString() => $"Receive on {_mailbox}";

    internal override EventOutcome Park(GreenThread thread, Worker worker) => Receive(WaiterFor(thread));

    /// <inheritdoc/>
    internal override string? NotChoosableBecause => null;

    internal override EventOutcome TryCompleteNow(GreenThread thread)
    {
        WaiterFor(thread);
        if (_mailbox.TryTake(out var message))
        {
            Value = message;
            return EventOutcome.Continue;
        }

        return EventOutcome.Parked;
    }

    internal override bool Enlist(GreenThread thread, ChoiceBranch branch, long generation)
    {
        var waiter = WaiterFor(thread);
        var ticket = _mailbox.Receivers.Add(waiter, branch, generation);

        // As a plain receive: counted in (a full fence), then a last look. A message there, and the withdrawal won:
        // nothing registered. Lost: a send released this waiter, and the branch is fired.
        return _mailbox.IsEmpty || !waiter.TryWithdraw(ticket);
    }

    internal override void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
        if (!chosen)
        {
            // The message a release woke this receiver for is not taken: the wake-up goes to the next receiver.
            PassOnIfWoken(_waiter!);
        }
    }

    internal override EventOutcome CompleteChosen(GreenThread thread) => TryCompleteNow(thread);

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => Receive(_waiter!);

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

    private EventOutcome Receive(Waiter waiter)
    {
        while (true)
        {
            if (_mailbox.TryTake(out var message))
            {
                Value = message;
                return EventOutcome.Continue;
            }

            // Count in (a full fence), then look once more: a sender publishes its message and then reads the count.
            var ticket = _mailbox.Receivers.Add(waiter);
            if (_mailbox.IsEmpty || !waiter.TryWithdraw(ticket))
            {
                // Parked: a send wakes the thread (or already did, if the withdrawal lost; it may be running
                // elsewhere by now, so nothing here touches it again), and Resume takes again. Another receiver may
                // take the message first; then it parks again.
                return EventOutcome.Parked;
            }
        }
    }
}
