using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

// The mailbox's invariants, checked in DEBUG builds where they can break; in Release the calls compile away.
public sealed partial class Mailbox<T>
{
    /// <summary>Checks, after a take, that the receiver has not passed the segment's append position. Receiver only.</summary>
    [Conditional("DEBUG")]
    private void AssertHeadBehindTail(MailboxSegment<T> segment)
    {
        Debug.Assert(
            _headPosition <= MailboxSegment<T>.PositionOf(Volatile.Read(ref segment.TailWord)),
            $"The receiver of {this} took position {_headPosition - 1}, past the append position of its segment: it read a slot no sender reserved.");
    }

    /// <summary>
    /// Checks that a segment the receiver is about to give to the pool is no longer the tail: a sender could still
    /// append to it and the message would be lost (the growth order in <see cref="Grow"/> rules this out).
    /// </summary>
    [Conditional("DEBUG")]
    private void AssertNotTail(MailboxSegment<T> segment)
    {
        Debug.Assert(Volatile.Read(ref _tail) != segment, $"A drained segment of {this} goes to the pool while it is still the tail: a send could append into the pool.");
    }
}
