using System;

namespace ThreadIterators;

/// <summary>
/// What <c>Put</c> returns when a bounded mailbox was full: the message, waiting for room. The green thread that
/// yields it parks until a receiver has made room, then sends the message and goes on.
/// </summary>
/// <remarks>
/// One per full <c>Put</c>; a put that finds room returns the shared <see cref="SentEvent"/> instead. The worker
/// running the sending thread parks and resumes it; a receiver on any worker releases it through its waiter.
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
internal sealed class PutEvent<T> : Event
{
    private readonly IBoundedTarget<T> _target;

    private readonly T _message;

    /// <summary>This put's place in the queue of waiting senders; made when the thread first waits.</summary>
    private Waiter? _waiter;

    /// <summary>Whether the message is in; yielding the event again would be a second send of it.</summary>
    private bool _sent;

    internal PutEvent(IBoundedTarget<T> target, T message)
    {
        _target = target;
        _message = message;
    }

    /// <inheritdoc/>
    public override string ToString() => $"Put() into {_target}";

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (_sent || (_waiter is not null && _waiter.Thread != thread))
        {
            throw new InvalidOperationException(
                $"{thread} yielded {this} again after it was yielded once; each Put() sends its message once, so call Put() again for another send.");
        }

        return TrySend(thread);
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => TrySend(thread);

    internal override void Abandon(GreenThread thread)
    {
        if (_waiter is { } waiter)
        {
            // Woken but disposed before it ran: the room it was woken for goes to the next waiting sender.
            BoundedSends.PassOnIfWoken(_target, waiter);
        }
    }

    private EventOutcome TrySend(GreenThread thread)
    {
        while (!_target.TryAdd(_message))
        {
            _waiter ??= Waiter.ForGreenThread(thread);
            var ticket = BoundedSends.WaitingRoom(_target).Add(_waiter);
            if (!_target.HasRoom() || !_waiter.TryWithdraw(ticket))
            {
                // Parked: a receiver wakes the thread once it has made room (or already did, if the withdrawal lost;
                // the thread may even be running elsewhere by now, so nothing here touches it again), and Resume
                // tries again.
                return EventOutcome.Parked;
            }
        }

        _sent = true;
        return EventOutcome.Continue;
    }
}
