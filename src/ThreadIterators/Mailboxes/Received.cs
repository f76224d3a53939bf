using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// What <see cref="ReceiveEvent{T}"/> and <see cref="SharedReceiveEvent{T}"/> share about the value they hold for their
/// body: the exception for a read of the end, and the trace text. Each event keeps the value and its flag in fields of
/// its own: held in a shared struct field instead, they made the ring's hop about 2% slower on one worker
/// (docs/history.md, "Designs measured and rejected").
/// </summary>
internal static class Received
{
    /// <summary>Describes the latest receive for a trace.</summary>
    internal static string TraceResult<T>(bool completed, T value) => completed ? " -> the end" : $" -> {value}";

    /// <summary>Throws for a read of <c>Value</c> after a receive that got the end of the completed mailbox.</summary>
    /// <remarks>Not inlined, and seen by the JIT to throw, so the check that calls it costs the caller a compare and a branch.</remarks>
    [DoesNotReturn]
    internal static void ThrowCompleted(Event owner, object mailbox, Exception? error) =>
        throw new ChannelClosedException(
            $"{owner} got the end, not a message: {mailbox} was completed and its every message taken. Check IsCompleted before reading Value.",
            error);
}
