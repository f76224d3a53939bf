using System;

namespace ThreadIterators;

/// <summary>Describes a message that reached no receiver; see <see cref="Scheduler.DeadLetter"/>.</summary>
/// <remarks>Immutable; raised on the OS thread that found the message undeliverable (a worker, or a sender's thread).</remarks>
public sealed class DeadLetterEventArgs : EventArgs
{
    internal DeadLetterEventArgs(object? message, object mailbox, GreenThread? receiver, DeadLetterReason reason)
    {
        Message = message;
        Mailbox = mailbox;
        Receiver = receiver;
        Reason = reason;
    }

    /// <summary>Gets the message (boxed, if it is a value).</summary>
    public object? Message { get; }

    /// <summary>Gets the mailbox it was sent to.</summary>
    public object Mailbox { get; }

    /// <summary>Gets the thread that was to receive it and has ended, if there was one.</summary>
    public GreenThread? Receiver { get; }

    /// <summary>Gets why it reached no receiver.</summary>
    public DeadLetterReason Reason { get; }

    /// <inheritdoc/>
    public override string ToString() => $"Dead letter to {Mailbox} ({Reason}{(Receiver is null ? string.Empty : $", {Receiver} ended")}): {Message}";
}
