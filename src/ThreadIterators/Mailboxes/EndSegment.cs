using System;

namespace ThreadIterators;

/// <summary>
/// The segment a completed <see cref="Mailbox{T}"/> ends with: frozen from the start, empty, and with no successor.
/// Completion links it behind the tail segment and freezes that one, as a growth links a larger segment; so a send
/// finds no room in it and learns the mailbox is completed, and the receiver, once it has drained every segment
/// before it, finds nothing after it and knows it has reached the end.
/// </summary>
/// <remarks>
/// <para>
/// One per completed mailbox (its <see cref="MailboxSegment{T}.Base"/> is that mailbox's count of messages before
/// the end), made by the completion and never pooled. It keeps the error the mailbox was completed with, for the
/// receiver that reads past the end and the senders it refuses, and a bounded mailbox's capacity and queue of waiting
/// senders, so that <see cref="Mailbox{T}.Capacity"/> reads the same after completion and a sender that queued late
/// is still found.
/// </para>
/// <para>
/// Its one slot is never written: it reads as free (so a waiting sender looking for room stops waiting and finds the
/// mailbox completed) and as holding no message (so a take finds nothing). Immutable once linked, but for its base;
/// any thread.
/// </para>
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
internal sealed class EndSegment<T> : MailboxSegment<T>
{
    /// <summary>Creates the end of a mailbox completed with <paramref name="error"/> (null for none).</summary>
    internal EndSegment(Exception? error, int bound, WaiterQueue? room, int capacity)
        : base(1, bound, room, capacity)
    {
        Error = error;
        TailWord = Frozen;
    }

    /// <summary>Gets the error the mailbox was completed with, or null.</summary>
    internal Exception? Error { get; }

    /// <summary>Gets the receiver whose end completed a bounded mailbox that did not outlive it, or null.</summary>
    internal GreenThread? EndedReceiver { get; init; }
}
