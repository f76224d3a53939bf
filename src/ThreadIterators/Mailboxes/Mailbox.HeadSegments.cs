using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

// What a take does beyond taking a slot: the first segment, room opened for the senders of a bounded mailbox, and a
// large drained segment given back. The receiver only.
//
// Shrinking (ShrinkIfEmpty), so that a burst does not leave a large segment with its mailbox:
//   1. The receiver has just taken a message from an unbounded segment of ShrinkFrom (256) slots or more and the next
//      slot holds none (TryTake), or is about to park on such a segment (TryPark).
//   2. Unless the segment's append position is the head position (no sender has reserved a slot) and it is not frozen,
//      stop.
//   3. Rent a first-size segment, lock the large one, and check that the large one is still the tail; if not, give the
//      small one back and stop.
//   4. Link the small segment as Next, freeze the large one, set the small one's Base, and make it the tail.
//   5. If no sender got in before the freeze (the large segment's position is still the head position), move the head
//      to the small segment and give the large one to the pool at once. Otherwise TryTake drains the late messages
//      first and moves on as after a growth. A park that shrank takes again, and parks on the small segment.
// The freeze comes before the tail moves here, the order a growth must avoid (Mailbox.Growing.cs). It is safe because
// the only party that could pool the frozen segment is this receiver, which does so in step 5, after the tail has
// moved; a sender that finds the segment frozen in between goes to Grow, waits for the lock, and finds the new tail.
// The receiver is running, so it is not parked on the segment, and no wake-up is owed. Shrinking after a take, and not
// only at a park, is what gives back the segment of a ring's forwarder that ends right after its last message and never
// parks (shrinking only at parks left the ring at 15 bytes per hop).
//
// Room in a bounded mailbox of capacity C. The slots are not allocated up front (allocated so, a Mailbox<string>(1024)
// took 16.7 KB before its first message): the mailbox starts with min(4, R) slots, R being C rounded up to a power of
// two (at least 2), and grows as an unbounded one does, each segment four times the last, up to R (NextBoundedSegment);
// none goes to the pool or shrinks. The capacity must hold across segments, so a segment is linked with only some slots
// open (MailboxSegment.Unopened): C less an upper bound on the messages that may be queued before it until the receiver
// gets there. The rest are opened by the receiver alone: after each take from a segment that is no longer the tail it
// walks the frozen segments ahead, whose counts are final, and opens the first unfrozen one's slots up to exactly what
// the capacity leaves (OpenAhead); on moving onto a segment it opens all of them (OpenBounded). It sets an absolute
// target rather than counting, so a take the growth already allowed for is never given twice, and only it opens slots
// once a segment is linked, so no sender has used them. A sender that finds a held-back slot waits as for a full
// mailbox, and the opening releases it. With no take under way during a growth, the new segment is linked with exactly
// the room the capacity leaves, so TrySend fills a mailbox to exactly C whatever the takes between growths. How senders
// wait for room, and when a take releases them (ReleaseRoom), is in the remarks of BoundedSends.
public sealed partial class Mailbox<T>
{
    /// <summary>
    /// Frees the slots a bounded mailbox's segment was linked without, now that the receiver has reached it, and wakes
    /// the senders that waited for them. Receiver only.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void OpenBounded(MailboxSegment<T> segment)
    {
        var opened = segment.Open();

        // Store-load fence, as after a take: a sender that found these slots closed and queued is seen here, or sees them free.
        Interlocked.MemoryBarrier();
        if (segment.Room!.Count != 0)
        {
            segment.Room.Release(opened);
        }
    }

    /// <summary>
    /// After a take from a bounded mailbox's segment that is no longer the tail (<paramref name="head"/>), opens as many
    /// of the held-back slots of the first unfrozen segment after it as the capacity now allows, and returns how many
    /// it opened (none while the growth that moved the tail on has not frozen the head yet). Receiver only.
    /// </summary>
    /// <remarks>
    /// The growth that linked a segment left closed the slots that the messages then possibly queued before it might
    /// still need (see <c>NextBoundedSegment</c>). Here the receiver knows exactly how many are queued before that
    /// segment (the frozen segments' final counts, less what it has taken), so it sets the open slots to exactly
    /// what the capacity leaves for it. Only the receiver opens slots once a segment is linked, and it computes the
    /// target afresh each time rather than counting, so a take the growth already allowed for is never given twice.
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int OpenAhead(MailboxSegment<T> head)
    {
        // The messages queued before the segment to open: the frozen segments' final counts, less the head's taken ones.
        long queuedBefore = -_headPosition;
        var segment = head;
        while (true)
        {
            var word = Volatile.Read(ref segment.TailWord);
            if ((word & MailboxSegment<T>.Frozen) == 0)
            {
                break;
            }

            // Frozen: its count is final, and its successor is linked (before the freeze), unless it is the end.
            queuedBefore += MailboxSegment<T>.PositionOf(word);
            if (Volatile.Read(ref segment.Next) is not { } next)
            {
                return 0;
            }

            segment = next;
        }

        return segment.OpenUpTo((int)Math.Min(segment.Capacity - queuedBefore, segment.Bound));
    }

    /// <summary>
    /// Wakes waiting senders once a quarter of a bounded mailbox is free, or all of it. Receiver only, right after a take
    /// that opened <paramref name="opened"/> slots in a segment ahead of it.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReleaseRoom(WaiterQueue room, MailboxSegment<T> segment, int opened)
    {
        if (segment.IsRendezvous)
        {
            // A take frees no room in a rendezvous mailbox: its waiting senders wait for the receiver's next receive.
            return;
        }

        if (Volatile.Read(ref _tail) != segment)
        {
            // Still draining segments a growth left behind: what this take freed is what it opened ahead.
            if (opened > 0)
            {
                room.Release(opened);
            }

            return;
        }

        var depth = MailboxSegment<T>.PositionOf(Volatile.Read(ref segment.TailWord)) - _headPosition;
        var free = segment.Bound - depth;
        if (free >= room.ReleaseAt || depth <= 0)
        {
            room.Release((int)free);
        }
    }

    /// <summary>
    /// If the receiver's large tail segment is empty, links a first-size segment behind it and freezes it; once no
    /// late message is left in it, the large segment goes back to the pool. Receiver only.
    /// </summary>
    private void ShrinkIfEmpty(MailboxSegment<T> large)
    {
        var word = Volatile.Read(ref large.TailWord);
        if (MailboxSegment<T>.PositionOf(word) != _headPosition || (word & MailboxSegment<T>.Frozen) != 0)
        {
            return;
        }

        var small = SegmentPool<T>.Rent(FirstSegmentSlots);
        lock (large)
        {
            if (Volatile.Read(ref _tail) != large)
            {
                SegmentPool<T>.Return(small);
                return;
            }

            Volatile.Write(ref large.Next, small);

            // The receiver is running, so it is not parked on the segment, and no wake-up is owed.
            large.Freeze(out var appended);
            small.Base = large.Base + appended;
            Volatile.Write(ref _tail, small);
        }

        if (MailboxSegment<T>.PositionOf(Volatile.Read(ref large.TailWord)) == _headPosition)
        {
            // No sender got in before the freeze: nothing is left to take from the large segment.
            _head = large.Next;
            _headPosition = 0;
            AssertNotTail(large);
            SegmentPool<T>.Return(large);
        }
    }

    /// <summary>Gets the first segment for a receiver that has none yet, or null if no message was ever sent.</summary>
    private MailboxSegment<T>? FirstSegment()
    {
        var tail = Volatile.Read(ref _tail);
        if (tail is null || tail == s_parkedEmpty)
        {
            return null;
        }

        // The sender that created the first segment sets _head right after publishing it in _tail.
        var spinner = default(SpinWait);
        MailboxSegment<T>? head;
        while ((head = Volatile.Read(ref _head)) is null)
        {
            spinner.SpinOnce();
        }

        return head;
    }
}
