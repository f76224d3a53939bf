using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

// The slow send path: the first segment, growth into a larger one, and a completed mailbox. Any thread, any number
// at once.
//
// Growth (Grow), when a sender's TryAppend finds the slot at the tail position still holding the previous lap's
// message, so the segment is full (SendSlow; TryAddSlow for a bounded mailbox below its last size):
//   1. Unless the full segment is no longer the tail, rent a segment four times larger (up to MaxSegmentSlots) from the
//      pool, outside any lock: a large segment takes a while to allocate and initialise. (A bounded mailbox's next
//      segment is made under the lock instead, sized from the full one's base: NextBoundedSegment.)
//   2. Lock the full segment (every change of a mailbox's tail holds the replaced segment's lock: growth, shrinking,
//      completion) and check that it is still the tail: another sender may have grown it. If not, give the new segment
//      back, and let the caller read the tail again.
//   3. Lock the new segment too, the older segment first, so no two growths wait on each other: nobody may grow or
//      shrink it until its Base is set.
//   4. Link it (full.Next) and read the full segment's Base.
//   5. Move the tail to it.
//   6. Freeze the full segment (Freeze: one compare-and-swap that sets the frozen bit and clears the parked bit). The
//      position in the swapped-out word is the segment's final count.
//   7. Set the new segment's Base to the full one's plus that count.
//   8. If the freeze took the parked bit, the receiver had drained the full segment and parked on it: the growing
//      sender owes it the wake-up, and gives it once its own message is in the new segment; if the mailbox was
//      completed meanwhile, it gives the wake-up all the same and refuses the send.
// Why in this order. Next before the freeze: a receiver that drains a frozen segment moves on to its Next at once
// (Freeze asserts it is there). The tail before the freeze: once frozen, the segment may be drained and given to the
// pool, which renews it (unfrozen, at position 0) for its next life; were it still the tail then, a sender would append
// into the pool, and its message would be lost or reach the next mailbox to rent the segment. A sender that appends
// between steps 5 and 6 is in time: the freeze fixes the position the receiver drains up to. (The other order lost
// messages: docs/history.md, "A rare hang, and its cause".) Base read before the freeze: a pooled segment's Base is
// reset.
// Senders that find the frozen bit go through SendSlow again and read the new tail. The receiver drains the frozen
// segment up to its final position, then moves on. Each sender's order holds, because its later message is always in
// the same or a later segment.
// A sender holding a pooled segment: a sender reads the tail and may be preempted before it appends, while the segment
// is frozen, drained, pooled and made another mailbox's tail. TryAppend therefore reads the tail word, then checks that
// the segment is still its mailbox's tail, and swaps expecting exactly that word. A segment starts a new life in the
// pool (Renew bumps the life count in the word's top bits) only after it stopped being its mailbox's tail, and before
// it becomes a tail again, so a swap that succeeds lands in this mailbox's life of the segment: while it is the tail,
// or between steps 5 and 6, and the receiver drains up to the frozen position.
// ParkRaceTests forces each race: a receiver that drains and parks on the full segment before the freeze
// (TestHooks.BeforeGrow; without step 8 it is stranded), a grower held right after the freeze while the receiver pools
// the segment and another send comes in (AfterFreeze), and a sender held after its tail read while the segment goes to
// another mailbox (AfterTailRead; without the check its message lands there).
public sealed partial class Mailbox<T>
{
    /// <summary>
    /// The send path for the first message, for a full or frozen segment, and for a completed mailbox: appends, and
    /// wakes the receiver if this send took its park mark. Returns false if the mailbox was completed and the message
    /// is not in; a wake-up owed for a park mark taken on the way (replacing the parked sentinel, or freezing in a
    /// growth) before the end was found is still given.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool SendSlow(T message, OsThreadContext context, bool alongside, Activity? sent)
    {
        var wake = false;
        while (true)
        {
            var tail = Volatile.Read(ref _tail);
            if (tail is null || tail == s_parkedEmpty)
            {
                // The first message: create the first segment. Only one sender's swap succeeds, and only that one
                // sets _head; the receiver waits for it if it sees the segment first.
                var created = SegmentPool<T>.Rent(FirstSegmentSlots);
                if (Interlocked.CompareExchange(ref _tail, created, tail) != tail)
                {
                    SegmentPool<T>.Return(created);
                    continue;
                }

                Volatile.Write(ref _head, created);
                wake = tail == s_parkedEmpty;
                tail = created;
            }

            if (TestHooks.Enabled)
            {
                TestHooks.BeforeSlowAppend?.Invoke(this);
            }

            bool appended;
            switch (tail.TryAppend(message, sent, ref _tail))
            {
                case MailboxSegment<T>.Appended:
                    appended = true;
                    break;
                case MailboxSegment<T>.AppendedToParked:
                    appended = wake = true;
                    break;
                case MailboxSegment<T>.NoRoom when tail is EndSegment<T>:
                    // Completed: the end is the tail for good, and no message goes in after it. A wake-up this
                    // sender owes for a park mark it took on the way is still owed.
                    appended = false;
                    break;
                case MailboxSegment<T>.NoRoom:
                    wake |= Grow(tail);
                    continue;
                default:
                    // Stale: the tail moved on since it was read; read it again.
                    continue;
            }

            if (!appended)
            {
                context.UncountSend();
            }

            if (wake)
            {
                WakeReceiver(context, alongside);
            }

            return appended;
        }
    }

    /// <summary>
    /// Links a larger segment behind a full one, makes it the tail and freezes the full one, unless that is no longer
    /// the tail (another sender already grew it). Returns true if the receiver was parked on the frozen segment, so
    /// the caller must wake it once its message is in.
    /// </summary>
    private bool Grow(MailboxSegment<T> full)
    {
        if (TestHooks.Enabled)
        {
            TestHooks.BeforeGrow?.Invoke(this);
        }

        // Allocating and initialising up to 65,536 slots happens outside the lock, so senders waiting for the tail to
        // change wait only for the few stores below. (A bounded mailbox's segment is made under it: it depends on
        // the full one's base, and such a mailbox grows a few times in its life.)
        if (Volatile.Read(ref _tail) != full)
        {
            return false;
        }

        var next = full.Room is null ? SegmentPool<T>.Rent(Math.Min(full.SlotCount * Growth, MaxSegmentSlots)) : null;

        // The segment is internal, so nothing else can lock it; growth is rare enough for a lock.
        lock (full)
        {
            // Checked under the lock that every change of the tail holds: another sender may have grown it, and a
            // segment taken from the pool may already be another mailbox's tail.
            if (Volatile.Read(ref _tail) == full)
            {
                next ??= NextBoundedSegment(full);
                // The new tail's lock too (older segment first, so no two growths wait on each other): until its
                // Base is set below, nobody may grow or shrink it.
                lock (next)
                {
                    Volatile.Write(ref full.Next, next);
                    var fullBase = full.Base;

                    // The tail moves on before the freeze. Once the segment is frozen, the receiver may drain it and
                    // give it to the pool, which unfreezes it for its next life; were it still the tail then, a sender
                    // reading it as the tail would append to the pooled segment and its message would be lost. A
                    // sender that appends to it between these two stores is in time: the freeze fixes the position
                    // the receiver drains it to.
                    Volatile.Write(ref _tail, next);
                    var wake = full.Freeze(out var appended);
                    // Read before the freeze: once frozen, the receiver may drain the segment into the pool, which resets it.
                    Volatile.Write(ref next.Base, fullBase + appended);
                    if (TestHooks.Enabled)
                    {
                        TestHooks.AfterFreeze?.Invoke(this);
                    }

                    return wake;
                }
            }
        }

        if (next is not null)
        {
            SegmentPool<T>.Return(next);
        }

        return false;
    }

    /// <summary>
    /// Makes the segment a bounded mailbox grows into behind <paramref name="full"/>: four times larger, up to the last
    /// size, with only as many slots free as the capacity allows while messages may still be queued before it.
    /// Under <paramref name="full"/>'s lock, with it still the tail, so its base is set.
    /// </summary>
    private MailboxSegment<T> NextBoundedSegment(MailboxSegment<T> full)
    {
        Debug.Assert(Monitor.IsEntered(full), "A bounded mailbox's next segment is sized from the full tail's base without that segment's lock.");
        var capacity = full.Capacity;
        var slots = Math.Min(full.SlotCount * Growth, LastBoundedSlots(capacity));

        // Until the receiver reaches the new segment, the messages queued before it are at most those appended before
        // the full segment less those the receiver has surely taken (none, if it is in the full one), plus the full
        // segment's own, of which it never holds more than its bound, though the receiver may free and senders refill
        // its slots until the freeze. Taken: the head's base and the receiver's position in it, read in that order (the receiver sets the
        // position before it moves the head), so a stale read counts fewer, never more. With no take under way this
        // is exact; otherwise the receiver's next take opens what it held back (OpenAhead), and its arrival all of it.
        var head = Volatile.Read(ref _head)!;
        var taken = Volatile.Read(ref head.Base) + Volatile.Read(ref _headPosition);
        var queued = Math.Max(0, full.Base - taken) + full.Bound;
        var free = (int)Math.Max(0, capacity - queued);
        return new MailboxSegment<T>(slots, Math.Min(slots, capacity), full.Room, capacity, free);
    }
}
