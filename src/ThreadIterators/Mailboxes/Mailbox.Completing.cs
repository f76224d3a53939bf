using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using System.Threading.Channels;

namespace ThreadIterators;

// Completing a mailbox: an end segment linked behind the last one, as a growth links a larger segment, so that
// senders and the receiver find the end on the paths they already take for a full or an empty segment. Any thread.
public sealed partial class Mailbox<T>
{
    /// <summary>
    /// Gets the error the mailbox was completed with, or null (also while it is not completed). Any thread.
    /// </summary>
    internal Exception? CompletionError => (Volatile.Read(ref _tail) as EndSegment<T>)?.Error;

    /// <summary>
    /// Gets a value indicating whether the receiver has taken every message of a completed mailbox: its head is the
    /// end segment, which it moves onto only once the segment before is frozen and drained. Receiver only, after a
    /// take found nothing.
    /// </summary>
    internal bool AtEnd => _head is EndSegment<T>;

    /// <inheritdoc/>
    ChannelClosedException IBoundedTarget<T>.Refusal() => Refusal();

    /// <summary>
    /// Completes the mailbox unless it is completed already: links an end segment behind the tail, makes it the tail,
    /// and freezes the segment before it, whose frozen position is where the receiver's messages end. Wakes a
    /// receiver parked on the empty mailbox, and every sender waiting for room. Any thread.
    /// </summary>
    /// <param name="error">The completion's error, or null.</param>
    /// <param name="endedReceiver">The receiver whose end completes the mailbox (see <see cref="OutlivesReceiver"/>), or null for a completion by a sender.</param>
    private bool End(Exception? error, GreenThread? endedReceiver = null)
    {
        while (true)
        {
            var tail = Volatile.Read(ref _tail);
            if (tail is EndSegment<T>)
            {
                return false;
            }

            if (tail is null || tail == s_parkedEmpty)
            {
                // Never sent to: the end is the first segment. Only one swap succeeds, the first send's or this one,
                // and only its maker sets _head; a receiver that sees the segment first waits for that.
                var first = new EndSegment<T>(error, FirstSegmentSlots, room: null, capacity: 0) { EndedReceiver = endedReceiver };
                if (Interlocked.CompareExchange(ref _tail, first, tail) != tail)
                {
                    continue;
                }

                Volatile.Write(ref _head, first);
                if (tail == s_parkedEmpty)
                {
                    // The receiver parked by swapping in the sentinel; replacing it takes that park's mark.
                    WakeReceiver(OsThreadContext.Current);
                }

                TellChannelReader();
                return true;
            }

            bool wake;
            lock (tail)
            {
                // Under the lock every change of the tail holds, in growth's order (see Grow): the successor is
                // linked, then the tail moves, then the old tail freezes. A send that appended to the old tail before
                // the freeze is in, ahead of the end; one after it finds the segment frozen, reads the new tail, and
                // is refused. A sender holding the old tail after a growth or shrink moved it on finds it stale.
                if (Volatile.Read(ref _tail) != tail)
                {
                    continue;
                }

                var end = new EndSegment<T>(error, tail.Bound, tail.Room, tail.Capacity) { EndedReceiver = endedReceiver };
                Volatile.Write(ref tail.Next, end);
                var tailBase = tail.Base;
                Volatile.Write(ref _tail, end);
                wake = tail.Freeze(out var appended);
                Volatile.Write(ref end.Base, tailBase + appended);
            }

            if (wake)
            {
                // The receiver had drained the segment and parked on it; the freeze took its mark.
                WakeReceiver(OsThreadContext.Current);
            }

            if (tail.Room is { } room && room.Count != 0)
            {
                // After a full fence (the freeze's swap): a sender that queued for room before it is seen here, and
                // one that queues after it looks for room in the end segment, finds some (its slot reads as free),
                // tries again and is refused.
                room.Release(int.MaxValue);
            }

            TellChannelReader();
            return true;
        }
    }

    /// <summary>
    /// Lets async code that receives through <see cref="AsChannelReader"/> see the end even while it is not waiting,
    /// so that the reader's <c>Completion</c> completes once nothing is left to read, as a channel's does.
    /// </summary>
    private void TellChannelReader()
    {
        if (Volatile.Read(ref _chooser) is MailboxChannelReader<T> { IsAttached: true } reader)
        {
            reader.OnMailboxCompleted();
        }
    }

    /// <summary>Makes the exception a refused send throws, naming the mailbox, with the completion's error inside.</summary>
    private ChannelClosedException Refusal() =>
        (Volatile.Read(ref _tail) as EndSegment<T>)?.EndedReceiver is { } ended
            ? new($"{this} takes no more messages: its receiver {ended} has ended ({ended.Scheduler}), and this one was not sent.", CompletionError)
            : new($"{this} was completed: it takes no more messages, and this one was not sent.", CompletionError);

    // Not inlined, and seen by the JIT to throw, so the check that calls it costs the caller a compare and a branch.
    [DoesNotReturn]
    private void ThrowCompleted() => throw Refusal();
}
