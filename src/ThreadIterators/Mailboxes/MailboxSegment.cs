using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A ring of message slots that a <see cref="Mailbox{T}"/>'s senders append to and its receiver takes from. While
/// the receiver keeps up, the same ring is reused lap after lap, so messaging allocates nothing; when a sender finds
/// it full, the mailbox freezes it and links a larger one behind it. Drained segments go back to
/// <see cref="SegmentPool{T}"/> for any mailbox of the same message type, so memory follows the messages in flight,
/// not every mailbox's deepest moment.
/// </summary>
/// <remarks>
/// <para>
/// Each slot carries a sequence number, as in Vyukov's bounded queue: a slot is free for the append at position
/// <c>p</c> when its sequence is <c>p</c>, holds that message when it is <c>p + 1</c>, and is free again for
/// <c>p + SlotCount</c> once the receiver took it. Positions count from zero in every segment.
/// </para>
/// <para>
/// A bounded mailbox's last segment may hold fewer messages than it has slots (<see cref="Bound"/>, its capacity, is
/// then below the slot count, a power of two). Taking the message at position <c>p</c> then frees the slot of
/// position <c>p + Bound</c> rather than the taken slot itself, which waits until the receiver takes
/// <c>p + SlotCount - Bound</c>. So at most <see cref="Bound"/> slots are ever free or full ahead of the receiver, and
/// a send still costs one compare-and-swap. For every other segment <see cref="Bound"/> is the slot count and the
/// receiver frees the slot it took.
/// </para>
/// <para>
/// A bounded mailbox's segment linked behind a full one may start with only its first <see cref="Unopened"/> slots
/// free, so that the messages still queued in the segments before it and those it takes never exceed the
/// capacity; the receiver frees the rest when it reaches the segment, once everything before it has been taken
/// (<see cref="Open"/>).
/// </para>
/// <para>
/// <see cref="TailWord"/> packs the next append position with two flags, so that one compare-and-swap both reserves
/// a slot and tells the sender whether the receiver is parked (and clears the mark: exactly one sender wakes it).
/// Its top bits count the segment's lives in the pool, so a sender still holding a segment from an earlier life
/// can never succeed with a swap on the current one.
/// </para>
/// <para>
/// Senders: <see cref="TryAppend"/> and <see cref="Freeze"/>, any thread. <see cref="TryTake"/>, slot reads and the
/// park mark: the receiver only.
/// </para>
/// <para>
/// Not sealed for one subclass: <see cref="EndSegment{T}"/>, the frozen segment a completed mailbox ends with, which
/// carries the completion's error. Nothing here is virtual, so the hop's calls stay direct.
/// </para>
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
internal class MailboxSegment<T>
{
    /// <summary>In <see cref="TailWord"/>: the receiver found the segment empty and is parked on it.</summary>
    internal const long Parked = 1;

    /// <summary>In <see cref="TailWord"/>: no more appends; <see cref="Next"/> takes them (none: an <see cref="EndSegment{T}"/> has no successor).</summary>
    internal const long Frozen = 2;

    /// <summary><see cref="TailWord"/> keeps the position above the two flag bits...</summary>
    internal const int PositionShift = 2;

    /// <summary>...in 42 bits (four trillion appends in one life of a segment)...</summary>
    internal const long PositionMask = (1L << 42) - 1;

    /// <summary>...and the life count above them.</summary>
    internal const int LifeShift = 44;

    /// <summary>
    /// In a full slot's sequence: the message carries a trace, in <see cref="Traces"/>. A bit of the sequence rather
    /// than a look at <see cref="Traces"/> on every take, so that the hop pays nothing for it (the look made ThreadRing
    /// 8% slower). Above any position; a free slot's sequence never has it, so a sender reads the sequence masked.
    /// </summary>
    internal const long TracedBit = 1L << 62;

    /// <summary>What <see cref="TryAppend"/> returns when the message is in and nobody needs waking.</summary>
    internal const int Appended = 0;

    /// <summary>What <see cref="TryAppend"/> returns when the message is in and the parked receiver must be woken.</summary>
    internal const int AppendedToParked = 1;

    /// <summary>What <see cref="TryAppend"/> returns when the segment is full or frozen; the message is not in.</summary>
    internal const int NoRoom = 2;

    /// <summary>What <see cref="TryAppend"/> returns when the segment is no longer the mailbox's tail; the message is not in.</summary>
    internal const int Stale = 3;

    /// <summary>The slots; the length is a power of two.</summary>
    internal readonly Slot[] Slots;

    /// <summary>The next append position, shifted by <see cref="PositionShift"/>, with <see cref="Parked"/> and <see cref="Frozen"/>.</summary>
    internal long TailWord;

    /// <summary>
    /// What each slot's message carries of its sender's trace (<see cref="Tracing"/>): made by the first send that
    /// carries one, and kept with the segment through the pool; null in a segment no traced message ever went
    /// through. An entry is written before its slot is published (with <see cref="TracedBit"/>) and cleared by the
    /// take, before the slot is freed.
    /// </summary>
    internal Activity?[]? Traces;

    /// <summary>The segment that takes appends once this one is frozen; set before the freeze.</summary>
    internal MailboxSegment<T>? Next;

    /// <summary>
    /// Messages appended to the mailbox's earlier segments, so that this segment's positions count on from there.
    /// Set by the growth that links the segment once the freeze has fixed the previous one's count (so for a moment
    /// after it became the tail it may still read 0), and, with the same value, by the receiver when it moves on to it.
    /// For <see cref="Mailbox{T}.Count"/>.
    /// </summary>
    internal long Base;

    internal MailboxSegment(int slotCount)
        : this(slotCount, slotCount)
    {
    }

    /// <summary>
    /// Creates a segment of <paramref name="slotCount"/> slots (a power of two) that holds at most
    /// <paramref name="bound"/> messages, of which the first <paramref name="free"/> (all, by default) may be appended
    /// before the receiver opens the rest; for a bounded mailbox of <paramref name="capacity"/> messages, with its
    /// queue of waiting senders <paramref name="room"/>.
    /// </summary>
    internal MailboxSegment(int slotCount, int bound, WaiterQueue? room = null, int capacity = 0, int free = int.MaxValue)
    {
        Slots = new Slot[slotCount];
        Bound = bound;
        Room = room;
        Capacity = capacity;
        Unopened = Math.Min(free, bound);
        for (var i = 0; i < Slots.Length; i++)
        {
            // Slots past the free ones start out as if freed for a lap before position 0: neither free nor full.
            Slots[i].Sequence = i < Unopened ? i : i - slotCount;
        }
    }

    /// <summary>The most messages the segment holds at once: the slot count, or a bounded mailbox's capacity.</summary>
    internal readonly int Bound;

    /// <summary>A bounded mailbox's capacity, in each of its segments; 0 in an unbounded mailbox's.</summary>
    internal readonly int Capacity;

    /// <summary>
    /// The first slot, below <see cref="Bound"/>, that is neither free nor full until the receiver reaches the segment
    /// and opens it (<see cref="Open"/>); <see cref="Bound"/> once every slot is in play. Receiver only, but for the
    /// constructor.
    /// </summary>
    internal int Unopened;

    /// <summary>
    /// A bounded mailbox's senders waiting for room, shared by all its segments; null in an unbounded mailbox's.
    /// Kept here rather than in the mailbox, whose every byte each parked thread pays for.
    /// </summary>
    internal readonly WaiterQueue? Room;

    /// <summary>Gets the number of slots.</summary>
    internal int SlotCount => Slots.Length;

    /// <summary>
    /// Gets a value indicating whether this is a rendezvous mailbox's segment (or the end segment of a completed one):
    /// a bound of 0, so <see cref="TryAppend"/> never finds a free slot and every message goes in through
    /// <see cref="TryAppendHandedOver"/>. No other segment has a bound below 1.
    /// </summary>
    internal bool IsRendezvous => Bound == 0;

    /// <summary>Gets the append position in a <see cref="TailWord"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static long PositionOf(long word) => (word >> PositionShift) & PositionMask;

    /// <summary>
    /// Appends a message unless the segment is full or frozen, or no longer <paramref name="tail"/> (a pooled segment
    /// may have moved on to another mailbox since the caller read it): returns <see cref="Appended"/>,
    /// <see cref="AppendedToParked"/>, <see cref="NoRoom"/> or <see cref="Stale"/>. Any thread.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal int TryAppend(T message, Activity? sent, ref MailboxSegment<T>? tail)
    {
        var slots = Slots;
        var backoff = 1;
        while (true)
        {
            var word = Volatile.Read(ref TailWord);

            // Checked after reading the word: a segment goes to the pool, where it starts a new life (a new word),
            // only after it stopped being its mailbox's tail, and starts that life before it becomes a tail again.
            // So a swap expecting this word succeeds only in this mailbox's life of the segment: while it is the
            // tail, or after a growth moved the tail on and before it froze the segment, which the receiver then
            // drains up to the frozen position.
            if (Volatile.Read(ref tail) != this)
            {
                return Stale;
            }

            if ((word & Frozen) != 0)
            {
                return NoRoom;
            }

            var position = PositionOf(word);
            ref var slot = ref slots[position & (slots.Length - 1)];
            var lag = (Volatile.Read(ref slot.Sequence) & ~TracedBit) - position;
            if (lag == 0)
            {
                // The slot is free: reserve it, clearing the park mark. The swap is the send's one interlocked
                // operation, and a full fence: the receiver's park and this append cannot both miss each other.
                if (Interlocked.CompareExchange(ref TailWord, (word & ~Parked) + (1L << PositionShift), word) == word)
                {
                    slot.Item = message;
                    if (sent is null)
                    {
                        Volatile.Write(ref slot.Sequence, position + 1);
                    }
                    else
                    {
                        Carry(position, sent);
                        Volatile.Write(ref slot.Sequence, (position + 1) | TracedBit);
                    }

                    return (word & Parked) != 0 ? AppendedToParked : Appended;
                }

                // Lost the swap to another sender: stand back before the next try (see BackOff).
                backoff = BackOff(backoff);
            }
            else if (lag < 0 && Volatile.Read(ref TailWord) == word)
            {
                // The slot still holds the message of the previous lap: the ring is full.
                return NoRoom;
            }

            // Another sender took the position first; look again.
        }
    }

    /// <summary>
    /// Appends a message a rendezvous mailbox's receiver has committed to take, unless the segment is frozen (the
    /// mailbox was completed); true if it is in. The slot's state is not looked at: a rendezvous segment's slots never
    /// read as free (its bound is 0), and one party at a time appends, the one that holds the receiver's commitment
    /// (the sender that took the park mark, or the receiver itself taking a waiting sender's message), so the slot
    /// at the position was taken before. Any thread.
    /// </summary>
    internal bool TryAppendHandedOver(T message, Activity? sent)
    {
        var slots = Slots;
        while (true)
        {
            var word = Volatile.Read(ref TailWord);
            if ((word & Frozen) != 0)
            {
                return false;
            }

            // Only a freeze can change the word meanwhile (nobody holds a park mark to swap): try again to find it.
            if (Interlocked.CompareExchange(ref TailWord, word + (1L << PositionShift), word) == word)
            {
                var position = PositionOf(word);
                ref var slot = ref slots[position & (slots.Length - 1)];
                slot.Item = message;
                if (sent is null)
                {
                    Volatile.Write(ref slot.Sequence, position + 1);
                }
                else
                {
                    Carry(position, sent);
                    Volatile.Write(ref slot.Sequence, (position + 1) | TracedBit);
                }

                return true;
            }
        }
    }

    /// <summary>
    /// Waits after a sender lost the tail's swap to another, twice as long as last time up to
    /// <see cref="MostBackOffSpins"/>; returns the next wait. Without it, senders on two cores that append in a tight
    /// loop take turns with the tail word's cache line, each append paying a transfer between the cores and many a
    /// failed swap: ProducerConsumer ran about 4x slower on two workers than on one. Standing back lets the winner
    /// append a run of messages with the line in its own cache. Only a lost swap waits, so an uncontended send
    /// never does. Kept out of line so that the hop's inlined append stays small.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int BackOff(int spins)
    {
        Thread.SpinWait(spins);
        return Math.Min(spins * 2, MostBackOffSpins);
    }

    /// <summary>The longest wait of <see cref="BackOff"/>, in <see cref="Thread.SpinWait"/> iterations; chosen by measuring ProducerConsumer on two workers (8: no gain; 64: half the loss; 256 to 8,192: alike).</summary>
    private const int MostBackOffSpins = 512;

    /// <summary>
    /// Takes the message at <paramref name="position"/> if its sender has written it, and frees the slot of position
    /// <c>position + Bound</c> for a sender (this slot, one lap on, unless a bounded mailbox's segment has more slots
    /// than its capacity). Receiver only, at its head position.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool TryTake(long position, out T message)
    {
        var slots = Slots;
        ref var slot = ref slots[position & (slots.Length - 1)];
        if (Volatile.Read(ref slot.Sequence) != position + 1)
        {
            // Empty, being written, or holding a message with its trace (TakeTraceAt first).
            message = default!;
            return false;
        }

        message = slot.Item;
        if (RuntimeHelpers.IsReferenceOrContainsReferences<T>())
        {
            slot.Item = default!;
        }

        // After the read above, so the sender the slot is freed for cannot overwrite the message first.
        var bound = Bound;
        Volatile.Write(ref slots[(position + bound) & (slots.Length - 1)].Sequence, position + bound);
        return true;
    }

    /// <summary>Writes the trace the message at <paramref name="position"/> carries, making the segment's traces if it has none. Its sender, before it publishes the slot.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Carry(long position, Activity sent)
    {
        var traces = Volatile.Read(ref Traces);
        if (traces is null)
        {
            var made = new Activity?[Slots.Length];
            traces = Interlocked.CompareExchange(ref Traces, made, null) ?? made;
        }

        traces[position & (traces.Length - 1)] = sent;
    }

    /// <summary>
    /// If the message at <paramref name="position"/> is written with a trace: takes the trace, and leaves the slot as
    /// a plain full one, for the <see cref="TryTake"/> that follows. Null if it is not written yet, or has no trace.
    /// Receiver only, at its head position.
    /// </summary>
    internal Activity? TakeTraceAt(long position)
    {
        ref var slot = ref Slots[position & (Slots.Length - 1)];
        if (Volatile.Read(ref slot.Sequence) != ((position + 1) | TracedBit))
        {
            return null;
        }

        // Read after the sequence, which its sender published after writing the entry. No sender writes a full slot,
        // so the slot is the receiver's until the take frees it.
        ref var entry = ref Traces![position & (Traces.Length - 1)];
        var sent = entry;
        entry = null;
        slot.Sequence = position + 1;
        return sent;
    }

    /// <summary>Gets a value indicating whether the message at <paramref name="position"/> has been written. Receiver only.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool HoldsMessageAt(long position) => (Volatile.Read(ref Slots[position & (Slots.Length - 1)].Sequence) & ~TracedBit) == position + 1;

    /// <summary>
    /// Waits for a sender that has reserved <paramref name="position"/> but not yet written its message: a few
    /// instructions, unless that sender's OS thread was preempted in between. Receiver only.
    /// </summary>
    internal void WaitForMessage(long position)
    {
        var spinner = default(SpinWait);
        while (!HoldsMessageAt(position))
        {
            spinner.SpinOnce();
        }
    }

    /// <summary>
    /// Gets a value indicating whether the slot at the append position is free (or another sender has just moved past
    /// it): a look, with no reservation, for a bounded mailbox's waiting sender. Any thread.
    /// </summary>
    internal bool HasRoom()
    {
        var word = Volatile.Read(ref TailWord);
        var position = PositionOf(word);
        return (Volatile.Read(ref Slots[position & (Slots.Length - 1)].Sequence) & ~TracedBit) - position >= 0;
    }

    /// <summary>
    /// Frees the slots a bounded mailbox's segment was linked without (<see cref="Unopened"/>), now that the receiver
    /// has taken every message before the segment; returns how many. Receiver only, when it moves on to the segment
    /// and before it takes from it, so no sender has used those slots and no take has freed them.
    /// </summary>
    internal int Open() => OpenUpTo(Bound);

    /// <summary>
    /// Frees the held-back slots below <paramref name="end"/> (<see cref="Open"/> frees all of them); returns how
    /// many. Receiver only, for a segment it has not reached: no sender has used those slots, and no take freed them.
    /// </summary>
    internal int OpenUpTo(int end)
    {
        var start = Unopened;
        if (end <= start)
        {
            return 0;
        }

        for (var i = start; i < end; i++)
        {
            Volatile.Write(ref Slots[i].Sequence, i);
        }

        Unopened = end;
        return end - start;
    }

    /// <summary>
    /// Makes a drained segment new for its next life: empty, unfrozen, unlinked, with a new life count. Only for a
    /// segment that no mailbox references as head or tail, whose every reserved slot has been taken.
    /// </summary>
    internal void Renew()
    {
        var life = (Volatile.Read(ref TailWord) >>> LifeShift) + 1;
        Next = null;
        Base = 0;
        var slots = Slots;
        for (var i = 0; i < slots.Length; i++)
        {
            slots[i].Sequence = i;
        }

        Volatile.Write(ref TailWord, life << LifeShift);
        AssertRenewed();
    }

    /// <summary>Checks that a segment on its way into or out of the pool is empty, unfrozen, unparked and unlinked.</summary>
    [Conditional("DEBUG")]
    internal void AssertRenewed()
    {
        var word = Volatile.Read(ref TailWord);
        Debug.Assert((word & (Frozen | Parked)) == 0, "A pooled segment is frozen or parked on: it was renewed while still in use.");
        Debug.Assert(PositionOf(word) == 0 && Next is null && Base == 0, "A pooled segment still holds positions or a successor of its last life.");
        Debug.Assert(Room is null, "A bounded mailbox's segment reached the pool; it is the mailbox's for good.");
    }

    /// <summary>
    /// Stops further appends; returns true if the receiver was parked on the segment, in which case the caller now
    /// owes it a wake-up. <paramref name="appended"/> is the number of messages the segment got. Any thread, under
    /// the segment's lock (growth, shrinking, completion), after <see cref="Next"/> is set.
    /// </summary>
    internal bool Freeze(out long appended)
    {
        Debug.Assert(Monitor.IsEntered(this), "A segment is frozen without its lock, which every change of a mailbox's tail holds.");
        Debug.Assert(Volatile.Read(ref Next) is not null, "A segment is frozen before its successor is linked: the receiver would drain it and find nowhere to go on.");
        while (true)
        {
            var word = Volatile.Read(ref TailWord);
            if (Interlocked.CompareExchange(ref TailWord, (word | Frozen) & ~Parked, word) == word)
            {
                appended = PositionOf(word);
                return (word & Parked) != 0;
            }
        }
    }

    /// <summary>One message slot.</summary>
    internal struct Slot
    {
        /// <summary>The message while the slot holds one.</summary>
        internal T Item;

        /// <summary>Which position may use the slot next, and whether it holds that position's message (see the type's remarks).</summary>
        internal long Sequence;
    }
}
