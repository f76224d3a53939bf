using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

// What a take does beyond taking a slot: the first segment, room opened for the senders of a bounded mailbox, and a large drained segment given back. The receiver only.
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
