using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A worker's bounded ring of runnable green threads. The owning worker pushes at the tail with a plain release
/// store and pops at the head; idle workers steal half from the head. Overflow moves half out (see
/// <see cref="Worker.Overflow"/>), as Go's and Tokio's run queues move it to their global queue.
/// </summary>
/// <remarks>
/// <see cref="Push"/> and <see cref="Pop"/>: the owning worker only. <see cref="StealInto"/>: any worker.
/// </remarks>
internal sealed class LocalRunQueue
{
    /// <summary>Slots in the ring. Taken from Go and Tokio, which use the same size; not measured here.</summary>
    internal const int Capacity = 256;

    /// <summary>Mask that maps a position onto a slot.</summary>
    private const int Mask = Capacity - 1;

    /// <summary>The slots; a slot between head and tail holds a runnable thread.</summary>
    private readonly GreenThread?[] _slots = new GreenThread?[Capacity];

    /// <summary>Head and tail, each on its own cache line: stealers write the head, the owner writes the tail.</summary>
    private PaddedPositions _positions;

    /// <summary>Gets a snapshot of the number of queued threads; exact only on the owning worker.</summary>
    internal int Count
    {
        get
        {
            var head = Volatile.Read(ref _positions.Head);
            var tail = Volatile.Read(ref _positions.Tail);
            return tail - head;
        }
    }

    /// <summary>Appends a thread, moving half of the queue to <paramref name="overflow"/> when full. Owner only.</summary>
    internal void Push(GreenThread thread, Worker overflow)
    {
        while (true)
        {
            var head = Volatile.Read(ref _positions.Head);
            var tail = _positions.Tail;
            if (tail - head < Capacity)
            {
                _slots[tail & Mask] = thread;
                Volatile.Write(ref _positions.Tail, tail + 1);
                AssertInvariants();
                return;
            }

            if (TryMoveHalf(head, thread, overflow))
            {
                return;
            }
        }
    }

    /// <summary>Takes the oldest thread, or null. Owner only.</summary>
    internal GreenThread? Pop()
    {
        while (true)
        {
            var head = Volatile.Read(ref _positions.Head);
            var tail = _positions.Tail;
            if (head == tail)
            {
                return null;
            }

            var thread = _slots[head & Mask];
            if (Interlocked.CompareExchange(ref _positions.Head, head + 1, head) == head)
            {
                // Only the owner writes slots, and this one is outside the ring now; clearing it lets an ended
                // thread's handle be collected (and its unobserved fault reported).
                _slots[head & Mask] = null;
                AssertInvariants();
                return thread;
            }
        }
    }

    /// <summary>
    /// Moves about half of this queue's threads into <paramref name="destination"/> (which must be empty and owned
    /// by the caller) and returns one of them to run at once, or null if there was nothing to steal.
    /// </summary>
    internal GreenThread? StealInto(LocalRunQueue destination)
    {
        while (true)
        {
            var head = Volatile.Read(ref _positions.Head);
            var tail = Volatile.Read(ref _positions.Tail);
            var count = tail - head;
            count -= count / 2;
            if (count <= 0)
            {
                return null;
            }

            if (count > Capacity / 2)
            {
                // Head and tail were read at different moments; read them again.
                continue;
            }

            var destinationTail = destination._positions.Tail;
            for (var i = 0; i < count - 1; i++)
            {
                destination._slots[(destinationTail + i) & Mask] = _slots[(head + i) & Mask];
            }

            var last = _slots[(head + count - 1) & Mask];
            if (Interlocked.CompareExchange(ref _positions.Head, head + count, head) == head)
            {
                Volatile.Write(ref destination._positions.Tail, destinationTail + count - 1);
                destination.AssertInvariants();
                return last;
            }
        }
    }

    /// <summary>
    /// Checks 0 &lt;= tail - head &lt;= <see cref="Capacity"/>. Owning worker only: it alone writes the tail, and
    /// stealers only move the head towards it, so its view is exact; another worker's two reads are not.
    /// </summary>
    [Conditional("DEBUG")]
    private void AssertInvariants()
    {
        var head = Volatile.Read(ref _positions.Head);
        var count = _positions.Tail - head;
        Debug.Assert(count >= 0, $"A run queue's head ({head}) passed its tail ({_positions.Tail}): a thread was taken twice.");
        Debug.Assert(count <= Capacity, $"A run queue holds {count} threads, more than its {Capacity} slots: a push overwrote a queued thread.");
    }

    private bool TryMoveHalf(int head, GreenThread thread, Worker overflow)
    {
        const int half = Capacity / 2;
        if (Interlocked.CompareExchange(ref _positions.Head, head + half, head) != head)
        {
            // Stealers made room meanwhile.
            return false;
        }

        // The taken slots are outside the ring now; only this (owning) thread writes slots, so they stay intact.
        for (var i = 0; i < half; i++)
        {
            overflow.Overflow(_slots[(head + i) & Mask]!, wake: false);
        }

        overflow.Overflow(thread, wake: true);
        return true;
    }

    /// <summary>The two positions of the ring, padded apart against false sharing.</summary>
    [StructLayout(LayoutKind.Explicit, Size = 3 * CacheLine)]
    [DebuggerDisplay("Head = {Head}, Tail = {Tail}")]
    private struct PaddedPositions
    {
        /// <summary>
        /// Padding per position: two 64-byte lines, since x86 prefetches lines in adjacent pairs. Guessed, after
        /// the padding of .NET's own concurrent queues.
        /// </summary>
        private const int CacheLine = 128;

        /// <summary>The oldest queued position; advanced by the owner's pop and by stealers.</summary>
        [FieldOffset(CacheLine)]
        public int Head;

        /// <summary>One past the newest queued position; written by the owner only.</summary>
        [FieldOffset(2 * CacheLine)]
        public int Tail;
    }
}
