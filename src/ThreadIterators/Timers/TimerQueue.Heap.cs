using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

// The heap of pending entries, ordered by deadline then sequence: every helper runs under the queue's lock.
internal sealed partial class TimerQueue
{
    /// <summary>Under the lock: moves up to <see cref="MaxBatch"/> entries due by <paramref name="now"/> into <paramref name="batch"/>, earliest first.</summary>
    private void TakeDue(long now, List<TimerEntry> batch)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "Due entries are taken off the timer heap without the queue's lock.");
        while (_count > 0 && _heap[0].Deadline <= now && batch.Count < MaxBatch)
        {
            batch.Add(_heap[0].Entry);
            RemoveAt(0);
        }

        ShrinkIfSparse();
    }

    /// <summary>Under the lock: removes the node at <paramref name="index"/>, marking its entry not pending.</summary>
    private void RemoveAt(int index)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "A node is removed from the timer heap without the queue's lock.");
        var entry = _heap[index].Entry;
        entry.HeapIndex = -1;
#if DEBUG
        entry.Owner = null;
#endif
        var last = --_count;
        if (index == last)
        {
            _heap[last] = default;
            return;
        }

        _heap[index] = _heap[last];
        _heap[last] = default;
        if (index > 0 && _heap[index].Precedes(_heap[(index - 1) / Arity]))
        {
            SiftUp(index);
        }
        else
        {
            SiftDown(index);
        }
    }

    /// <summary>Under the lock: moves the node at <paramref name="index"/> up to its place, updating each moved entry's index.</summary>
    private void SiftUp(int index)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The timer heap and its entries' indexes are moved without the queue's lock.");
        var heap = _heap;
        var node = heap[index];
        while (index > 0)
        {
            var parent = (index - 1) / Arity;
            if (!node.Precedes(heap[parent]))
            {
                break;
            }

            heap[index] = heap[parent];
            heap[index].Entry.HeapIndex = index;
            index = parent;
        }

        heap[index] = node;
        node.Entry.HeapIndex = index;
    }

    /// <summary>Under the lock: moves the node at <paramref name="index"/> down to its place, updating each moved entry's index.</summary>
    private void SiftDown(int index)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The timer heap and its entries' indexes are moved without the queue's lock.");
        var heap = _heap;
        var count = _count;
        var node = heap[index];
        while (true)
        {
            var first = (index * Arity) + 1;
            if (first >= count)
            {
                break;
            }

            var best = first;
            var end = Math.Min(first + Arity, count);
            for (var child = first + 1; child < end; child++)
            {
                if (heap[child].Precedes(heap[best]))
                {
                    best = child;
                }
            }

            if (!heap[best].Precedes(node))
            {
                break;
            }

            heap[index] = heap[best];
            heap[index].Entry.HeapIndex = index;
            index = best;
        }

        heap[index] = node;
        node.Entry.HeapIndex = index;
    }

    /// <summary>Under the lock: halves the array when a quarter of it is used, so a burst of timers does not keep its memory.</summary>
    private void ShrinkIfSparse()
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The timer heap's size is read and the heap replaced without the queue's lock.");
        if (_heap.Length > MinCapacity && _count < _heap.Length / 4)
        {
            Resize(Math.Max(MinCapacity, _heap.Length / 2));
        }
    }

    /// <summary>Under the lock: moves the heap to an array of <paramref name="capacity"/> slots.</summary>
    private void Resize(int capacity)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The timer heap is copied and replaced without the queue's lock.");
        var heap = new TimerNode[capacity];
        Array.Copy(_heap, heap, _count);
        _heap = heap;
    }

    /// <summary>Under the lock, DEBUG only: a pending entry is in this queue's heap where its index says.</summary>
    [Conditional("DEBUG")]
    private void AssertPendingHere(TimerEntry entry)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The timer heap is read to check an entry without the queue's lock.");
        var index = entry.HeapIndex;
        Debug.Assert(index < _count && ReferenceEquals(_heap[index].Entry, entry), $"A timer entry ({entry}) is pending in another queue, or its heap index {index} is stale.");
    }
}
