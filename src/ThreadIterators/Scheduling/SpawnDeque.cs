using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The threads a worker spawned and has not yet run: its owner takes the newest, idle workers steal the oldest
/// (Chase and Lev's deque, as Cilk and Rayon run forks). So a tree of spawns unfolds depth first on the worker that
/// spawned it, a few threads of it live at a time rather than every thread of a level, while a thief takes the
/// oldest spawn, the root of the largest piece of work left.
/// </summary>
/// <remarks>
/// <see cref="TryPush"/> and <see cref="TryPop"/>: the owning worker only. <see cref="TrySteal"/>: any thread. Only a
/// thread that takes one moves <see cref="_top"/>, with a compare-and-swap, so nobody ever reads a deque as emptier
/// than it is: a thief that fails writes nothing. The owner and a thief contend only for the last thread; the owner
/// publishes its claim (the lowered bottom) with a full fence before reading the top, and the swap decides. (A first
/// version let a thief that found nothing move the top and move it back, so the owner could read its deque as empty,
/// park, and strand a spawn: the ring of 10,000 hung on 2 workers. <c>SpawnDequeTests</c> races an owner and two
/// thieves over 200,000 pushes.)
/// </remarks>
internal sealed class SpawnDeque
{
    /// <summary>Slots; a power of two. Guessed: as many as the local run queue.</summary>
    internal const int Capacity = 256;

    private const int Mask = Capacity - 1;

    private readonly GreenThread?[] _items = new GreenThread?[Capacity];

    /// <summary>The oldest thread's position, moved on by whoever takes it. Positions are 64-bit, so they never wrap.</summary>
    private long _top;

    /// <summary>One past the newest thread's position; the owner's.</summary>
    private long _bottom;

    /// <summary>
    /// Positions below this are cleared. Thieves cannot clear the slot they took (the owner may reuse it at once), so
    /// the owner clears slots below the top it reads, letting an ended thread's handle be collected.
    /// </summary>
    private long _cleared;

    /// <summary>Gets the number of threads held; exact on the owner's thread, a hint on others.</summary>
    internal int Count => (int)(Volatile.Read(ref _bottom) - Volatile.Read(ref _top));

    /// <summary>Adds a thread just spawned; false if the deque is full. Owner only.</summary>
    internal bool TryPush(GreenThread thread)
    {
        var bottom = _bottom;
        var top = Volatile.Read(ref _top);
        if (bottom - top >= Capacity)
        {
            return false;
        }

        ClearBelow(top, bottom);
        Volatile.Write(ref _items[bottom & Mask], thread);
        Volatile.Write(ref _bottom, bottom + 1);
        return true;
    }

    /// <summary>Takes the newest thread, or null if there is none. Owner only.</summary>
    internal GreenThread? TryPop()
    {
        var bottom = _bottom - 1;
        if (bottom < Volatile.Read(ref _top))
        {
            return null;
        }

        // Claim the newest, then look at the top: a thief reads the bottom after its own read of the top, so either
        // it sees this claim or this read sees its swap.
        Interlocked.Exchange(ref _bottom, bottom);
        var top = Volatile.Read(ref _top);
        if (top > bottom)
        {
            // A thief took the last one meanwhile.
            Volatile.Write(ref _bottom, bottom + 1);
            return null;
        }

        ref var slot = ref _items[bottom & Mask];
        var thread = Volatile.Read(ref slot);
        if (top == bottom)
        {
            // The last one: the owner and a thief race for it with the same swap a thief makes.
            var won = Interlocked.CompareExchange(ref _top, top + 1, top) == top;
            Volatile.Write(ref _bottom, bottom + 1);
            if (!won)
            {
                return null;
            }

            ClearBelow(top + 1, bottom + 1);
            return thread;
        }

        slot = null;
        return thread;
    }

    /// <summary>Takes the oldest thread, or null if there is none or another taker won it. Any thread.</summary>
    internal GreenThread? TrySteal()
    {
        while (true)
        {
            var top = Volatile.Read(ref _top);

            // Ordered after the top's read, as the owner's claim is ordered before its read of the top.
            Interlocked.MemoryBarrier();
            var bottom = Volatile.Read(ref _bottom);
            if (top >= bottom)
            {
                return null;
            }

            // Read before the swap: once the top moves on, the owner may reuse the slot.
            var thread = Volatile.Read(ref _items[top & Mask]);
            if (Interlocked.CompareExchange(ref _top, top + 1, top) == top)
            {
                return thread;
            }
        }
    }

    /// <summary>
    /// Clears the slots of threads taken from below <paramref name="top"/> since the last call, with the deque's
    /// bottom at <paramref name="bottom"/>. Only positions within a lap below the bottom: an older position shares
    /// its slot with a live one. Owner only.
    /// </summary>
    private void ClearBelow(long top, long bottom)
    {
        var position = _cleared > bottom - Capacity ? _cleared : bottom - Capacity;
        for (; position < top; position++)
        {
            _items[position & Mask] = null;
        }

        if (top > _cleared)
        {
            _cleared = top;
        }
    }
}
