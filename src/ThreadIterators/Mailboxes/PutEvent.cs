using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A send into a bounded mailbox that happens only while the event is yielded: the thread parks until there is room,
/// then the message goes in. Made by <see cref="Mailbox{T}.CreatePutEvent"/> or
/// <see cref="SharedMailbox{T}.CreatePutEvent"/>, armed with a message by <see cref="For"/> before each yield; as a
/// branch of a <see cref="Choice"/> it sends only if chosen.
/// </summary>
/// <remarks>
/// <para>
/// <c>Put(message)</c> returns this type too when the mailbox was full, already armed; a put that found room sent
/// at once and returned a completed event instead. That eagerness is why only an event from <c>CreatePutEvent</c>
/// may be a choice's branch: a choice must be able to withdraw a put that loses, which a message already sent
/// cannot be.
/// </para>
/// <para>
/// Into an unbounded mailbox the send always succeeds at once. The worker running the sending thread parks and
/// resumes it; a receiver on any worker releases it. One wait at a time, by the thread that yields it.
/// </para>
/// <example>
/// A thread that hands its results on while still taking requests, whichever can go first:
/// <code>
/// var put = results.CreatePutEvent();
/// var next = new Choice(requests.Recv(), put.For(pending.Peek()));
/// yield return next;
/// if (next.Index == 1) pending.Dequeue();   // sent
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class PutEvent<T> : Event, IChoosable, IPutYield
{
    private readonly IBoundedTarget<T> _target;

    /// <summary>Whether <c>Put</c> made this event after finding the mailbox full; such a put cannot be a choice's branch.</summary>
    private readonly bool _fromPut;

    /// <summary>The message of the armed put.</summary>
    private T _message = default!;

    /// <summary>Whether a message is armed and not yet sent; yielding an event that is not would send nothing, or send twice.</summary>
    private bool _armed;

    /// <summary>Whether a thread is parked on the armed put; it may not be armed again until that wait is over.</summary>
    private bool _waiting;

    /// <summary>This put's place in the queue of waiting senders; made when the thread first waits.</summary>
    private Waiter? _waiter;

    internal PutEvent(IBoundedTarget<T> target, T message, bool fromPut)
    {
        _target = target;
        _fromPut = fromPut;
        _message = message;
        _armed = fromPut;
    }

    /// <summary>Gets a value indicating whether the last armed message has been sent.</summary>
    public bool IsSent => !_armed;

    /// <summary>Gets the armed message, for a rendezvous mailbox's receiver that takes it from the waiting senders (<see cref="WaiterQueue.TryTakeOffer{T}"/>).</summary>
    internal T Offered => _message;

    /// <inheritdoc/>
    bool IPutYield.IsPutFromPut => _fromPut;

    /// <inheritdoc/>
    string? IChoosable.NotChoosableBecause => _fromPut
        ? "Put(message) sends at once when there is room, so a choice could not withdraw it; use CreatePutEvent().For(message), which sends only if chosen"
        : null;

    /// <inheritdoc/>
    bool IChoosable.TimesOutAlone => true;

    /// <summary>Arms the put with <paramref name="message"/>: the next yield sends it. Returns this event, to yield.</summary>
    /// <param name="message">The message to send.</param>
    /// <returns>This event.</returns>
    /// <exception cref="InvalidOperationException">A thread is waiting on the event, or it came from <c>Put</c>.</exception>
    public PutEvent<T> For(T message)
    {
        if (_fromPut)
        {
            throw new InvalidOperationException($"{this} was returned by Put(message) and sends that message only; call Put again, or use CreatePutEvent() for a reusable put.");
        }

        if (_waiting)
        {
            throw new InvalidOperationException($"{this} was armed again while {_waiter?.Thread} is waiting on it to send; arm it after that thread has resumed.");
        }

        _message = message;
        _armed = true;
        return this;
    }

    /// <inheritdoc/>
    public override string ToString() => $"Put() into {_target}";

    // Who drains the full mailbox: its receiver, if it has one (a shared mailbox's receivers are not listed). In a
    // trace, its name.
    internal override void DescribeWait(WaitDescription into)
    {
        if (into.ForTrace)
        {
            return;
        }

        var drainer = _target.Drainer;
        var what = _target.IsRendezvous ? $"a receiver to take the message from {_target}" : $"room in {_target}";
        into.Say($"{what}{(drainer is null ? string.Empty : $", drained by {drainer}")}").WaitsOn(drainer);
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        CheckArmed(thread);
        if (_fromPut)
        {
            thread.Yielded(this, anyMark: true);
        }

        return TrySend(thread);
    }

    // A rendezvous mailbox's receiver may have taken the message from the queue (the wait ended as taken): sent.
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => _waiter is { WasTaken: true } ? Sent() : TrySend(thread);

    internal override void Abandon(GreenThread thread)
    {
        _waiting = false;
        if (_waiter is { } waiter)
        {
            // Woken but disposed before it ran: the room it was woken for goes to the next waiting sender.
            BoundedSends.PassOnIfWoken(_target, waiter);
        }
    }

    // Nothing was sent; the room a release frees goes to the next waiting sender, as the queue drops this withdrawn one.
    internal override bool TryInterrupt(GreenThread thread) => Volatile.Read(ref _waiter) is { } waiter && waiter.TryInterrupt(thread);

    internal override void CompleteInterrupt(GreenThread thread) => _waiting = false;

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread)
    {
        CheckArmed(thread);

        return TrySendOnce() ? EventOutcome.Continue : EventOutcome.Parked;
    }

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker)
    {
        var waiter = WaiterFor(thread);
        var ticket = BoundedSends.WaitingRoom(_target).Add(waiter, branch, generation);

        // Counted in, then a last look, as a plain put does; room there and the withdrawal won: nothing registered.
        return !_target.HasRoom() || !waiter.TryWithdraw(ticket);
    }

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
        if (!chosen)
        {
            // Nothing sent; room this put was woken for goes to the next waiting sender.
            BoundedSends.PassOnIfWoken(_target, _waiter!);
        }
    }

    // Chosen by a rendezvous mailbox's receiver that took the message (its fire won): sent. Every chosen branch was
    // enlisted in this wait, so the state read is this wait's.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) =>
        _waiter is { WasTaken: true } ? Sent() : TrySendOnce() ? EventOutcome.Continue : EventOutcome.Parked;

    private void CheckArmed(GreenThread thread)
    {
        if (!_armed)
        {
            throw new InvalidOperationException(_fromPut
                ? $"{thread} yielded {this} again after it sent its message; each Put() sends its message once, so call Put() again for another send."
                : $"{thread} yielded {this} without arming it; call For(message) before each yield.");
        }

        if (_waiter is { } waiter && waiter.Thread != thread)
        {
            throw new InvalidOperationException($"{thread} yielded {this}, which belongs to {waiter.Thread}; give each sending thread its own put event.");
        }
    }

    /// <summary>Sends the armed message if there is room; false if not, and throws if the target was completed.</summary>
    private bool TrySendOnce()
    {
        if (!_target.TrySend(_message))
        {
            // Completed: the thread ends with the refusal, here (a put found the target completed) or at its resume
            // (completion released the wait), as a throw at the yield would end it.
            return _target.IsCompleted ? throw _target.Refusal() : false;
        }

        _armed = false;
        _message = default!;
        return true;
    }

    /// <summary>Ends a wait whose message a rendezvous mailbox's receiver took from the queue.</summary>
    private EventOutcome Sent()
    {
        _waiting = false;
        _armed = false;
        _message = default!;
        return EventOutcome.Continue;
    }

    private EventOutcome TrySend(GreenThread thread)
    {
        _waiting = false;
        while (!TrySendOnce())
        {
            var waiter = WaiterFor(thread);

            // Before the wait is visible: once it is, the thread may resume elsewhere and clear it.
            _waiting = true;
            var ticket = BoundedSends.WaitingRoom(_target).Add(waiter);
            if (!_target.HasRoom() || !waiter.TryWithdraw(ticket))
            {
                // Parked: a receiver wakes the thread once it has made room (or already did, if the withdrawal lost;
                // the thread may even be running elsewhere by now, so nothing here touches it again), and Resume
                // tries again.
                return EventOutcome.Parked;
            }

            _waiting = false;
        }

        return EventOutcome.Continue;
    }

    private Waiter WaiterFor(GreenThread thread) => _waiter ??= Waiter.ForGreenThread(thread, offer: this);
}
