using System;
using System.Collections.Generic;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The green threads one worker spawned, in spawn order, which is id order (a worker hands out ids from its own
/// increasing blocks); or, as the registry's outside log, those spawned by OS threads that are no worker. A thread
/// that ends is not taken out: the log drops ended threads when it fills, and when its worker goes idle after the
/// log has doubled since it last did. So a spawn writes only its own worker's memory, and an end, on whichever
/// worker, writes nothing here: the doubly linked lists this replaced took a lock for each and, when a thread ended
/// on another worker than its spawner's, wrote its neighbours' cache lines there.
/// </summary>
/// <remarks>
/// A worker's log: appends and drops by the owning worker only, the drops under the log's lock; reads
/// (<see cref="CopyLive"/>, <see cref="Find"/>) from any thread under the lock, which sees every append whose count
/// it read. The outside log: everything under the lock.
/// </remarks>
internal sealed class ThreadLog
{
    /// <summary>The smallest the array gets. Guessed: small enough for a worker that spawns little.</summary>
    private const int MinimumCapacity = 64;

    /// <summary>The threads; those at and past <see cref="_count"/> are null.</summary>
    private GreenThread?[] _items = new GreenThread?[MinimumCapacity];

    /// <summary>The threads in <see cref="_items"/>; written after the slot it covers, read by others under the lock.</summary>
    private int _count;

    /// <summary>The count the last drop left, so that an idle worker drops again only once the log has doubled.</summary>
    private int _keptAtLastDrop;

    /// <summary>
    /// Keeps the next log's count off this one's cache lines: the workers' logs are allocated one after another, and
    /// each worker writes its own count on every spawn.
    /// </summary>
#pragma warning disable CS0169, IDE0051 // Never read: they are there for their size, two 64-byte lines (x86 prefetches lines in adjacent pairs).
    private long _pad0, _pad1, _pad2, _pad3, _pad4, _pad5, _pad6, _pad7, _pad8, _pad9, _pad10, _pad11, _pad12, _pad13, _pad14, _pad15;
#pragma warning restore CS0169, IDE0051

    /// <summary>Gets the number of threads held, ended ones included until the next drop.</summary>
    internal int Count => Volatile.Read(ref _count);

    /// <summary>Appends a thread just spawned. The owning worker, or under the lock for the outside log.</summary>
    internal void Append(GreenThread thread)
    {
        var count = _count;
        var items = _items;
        if (count == items.Length)
        {
            DropEnded(full: true);
            count = _count;
            items = _items;
        }

        items[count] = thread;
        Volatile.Write(ref _count, count + 1);
    }

    /// <summary>
    /// Drops ended threads once the log has doubled since the last drop, or once it holds more than twice
    /// <paramref name="liveAtMost"/> (the scheduler's live count, an upper bound on this log's live threads), or at
    /// once if <paramref name="force"/>. The first catches a log that grew; the second one that did not grow but whose
    /// threads ended, such as a burst of spawns all live at the last drop and ended since: without it they would stay
    /// reachable until the log doubled again. Either way at least half of what the scan reads was appended or ended
    /// since the last drop, so its cost is amortized over those spawns. Owning worker, when idle; anyone for the
    /// outside log.
    /// </summary>
    internal void DropEndedIfGrown(long liveAtMost = long.MaxValue, bool force = false)
    {
        var count = Volatile.Read(ref _count);
        if (force || count - _keptAtLastDrop >= Math.Max(MinimumCapacity, _keptAtLastDrop) || (count > MinimumCapacity && count > 2 * liveAtMost))
        {
            DropEnded(full: false);
        }
    }

    /// <summary>
    /// Removes <paramref name="thread"/>, whose spawn failed, and returns true; false if <see cref="TakeAll"/> took it
    /// first. The spawning OS thread: the owner, or anyone for the outside log.
    /// </summary>
    internal bool Remove(GreenThread thread)
    {
        lock (this)
        {
            var items = _items;
            for (var i = _count - 1; i >= 0; i--)
            {
                if (items[i] == thread)
                {
                    Array.Copy(items, i + 1, items, i, _count - i - 1);
                    items[_count - 1] = null;
                    Volatile.Write(ref _count, _count - 1);
                    return true;
                }
            }

            return false;
        }
    }

    /// <summary>Adds every thread held that has not ended to <paramref name="into"/>. Any thread.</summary>
    internal void CopyLive(List<GreenThread> into)
    {
        lock (this)
        {
            var items = _items;
            var count = Volatile.Read(ref _count);
            for (var i = 0; i < count; i++)
            {
                if (items[i] is { IsCompleted: false } thread)
                {
                    into.Add(thread);
                }
            }
        }
    }

    /// <summary>Adds every thread held that has not ended to <paramref name="into"/> and empties the log. Disposal, once the workers have stopped.</summary>
    internal void TakeAll(List<GreenThread> into)
    {
        lock (this)
        {
            CopyLive(into);
            Array.Clear(_items, 0, _count);
            Volatile.Write(ref _count, 0);
            _keptAtLastDrop = 0;
        }
    }

    /// <summary>
    /// Finds the live thread with <paramref name="id"/>: a binary search, as a worker's log is in id order; a walk for
    /// the outside log (<paramref name="ordered"/> false), whose spawners take ids before the lock. Any thread.
    /// </summary>
    internal GreenThread? Find(long id, bool ordered)
    {
        lock (this)
        {
            var items = _items;
            var count = Volatile.Read(ref _count);
            if (!ordered)
            {
                for (var i = count - 1; i >= 0; i--)
                {
                    if (items[i]!.Id == id)
                    {
                        return items[i]!.IsCompleted ? null : items[i];
                    }
                }

                return null;
            }

            int low = 0, high = count - 1;
            while (low <= high)
            {
                var middle = (low + high) >>> 1;
                var found = items[middle]!;
                if (found.Id == id)
                {
                    return found.IsCompleted ? null : found;
                }

                if (found.Id < id)
                {
                    low = middle + 1;
                }
                else
                {
                    high = middle - 1;
                }
            }

            return null;
        }
    }

    /// <summary>
    /// Keeps the threads that have not ended, in order, and sizes the array to them: twice as large when a full log
    /// is still more than half live, a quarter when it is mostly empty. Under the lock, so readers never see it
    /// half done.
    /// </summary>
    private void DropEnded(bool full)
    {
        lock (this)
        {
            var items = _items;
            var count = _count;
            var kept = 0;
            for (var i = 0; i < count; i++)
            {
                var thread = items[i]!;
                if (!thread.IsCompleted)
                {
                    items[kept++] = thread;
                }
            }

            var capacity = items.Length;
            if (full && kept > capacity / 2)
            {
                capacity *= 2;
            }
            else
            {
                while (capacity > MinimumCapacity && kept < capacity / 4)
                {
                    capacity /= 2;
                }
            }

            if (capacity != items.Length)
            {
                var resized = new GreenThread?[capacity];
                Array.Copy(items, resized, kept);
                _items = resized;
            }
            else
            {
                Array.Clear(items, kept, count - kept);
            }

            _keptAtLastDrop = kept;
            Volatile.Write(ref _count, kept);
        }
    }
}
