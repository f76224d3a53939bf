using System;
using System.Diagnostics;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to receive from a <see cref="Mailbox{T}"/>; after the thread resumes,
/// <see cref="Value"/> holds the message. Obtain it from <see cref="Mailbox{T}.Recv"/>.
/// </summary>
/// <remarks>
/// Each mailbox has exactly one receive event, reused for every message, so receiving allocates nothing.
/// <see cref="Value"/> is meant to be read by the receiving thread between two receives.
/// </remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
[DebuggerDisplay("Recv() on {_mailbox,nq}")]
public sealed class ReceiveEvent<T> : Event
{
    /// <summary>The mailbox this event receives from.</summary>
    private readonly Mailbox<T> _mailbox;

    internal ReceiveEvent(Mailbox<T> mailbox) => _mailbox = mailbox;

    /// <summary>Gets the message received by the latest completed receive.</summary>
    public T Value { get; private set; } = default!;

    /// <summary>Gets the mailbox this event receives from.</summary>
    public Mailbox<T> Mailbox => _mailbox;

    /// <inheritdoc/>
    public override string ToString() => $"Recv() on {_mailbox}";

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        var mailbox = _mailbox;
        if (mailbox.Receiver != thread)
        {
            mailbox.Bind(thread);
        }

        while (true)
        {
            if (mailbox.TryTake(out var message))
            {
                Value = message;
                return EventOutcome.Continue;
            }

            // A failed park means the mailbox changed since the take looked: a message arrived, or the segment
            // the receiver would park on was created or frozen. Look again.
            if (mailbox.TryPark())
            {
                return EventOutcome.Parked;
            }
        }
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        if (!_mailbox.TryTake(out var message))
        {
            // A receiver is woken only by the send that linked a message; anything else is a runtime bug, and
            // continuing would hand the body a message nobody sent.
            throw new InvalidOperationException($"{thread} was resumed from {this} with no message in the mailbox.");
        }

        Value = message;
        return EventOutcome.Continue;
    }

    internal override void Abandon(GreenThread thread) => _mailbox.Abandon();
}
