using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace Footprint;

/// <summary>What one parked green thread costs in managed heap, and the check that every parked thread still runs.</summary>
/// <param name="Threads">Green threads parked, each on its own empty mailbox.</param>
/// <param name="Workers">The scheduler's OS threads.</param>
/// <param name="HeapBytes">Managed heap after parking them, less the heap before (both after a full collection).</param>
/// <param name="Received">Threads that received their wake-up message once they were all parked.</param>
public sealed record ParkedFootprint(int Threads, int Workers, long HeapBytes, long Received)
{
    /// <summary>Gets the heap each parked thread costs: its iterator, handle and mailbox.</summary>
    public double BytesPerParkedThread => HeapBytes / (double)Threads;

    /// <summary>Gets a value indicating whether every thread received its message.</summary>
    public bool Ok => Received == Threads;

    /// <summary>
    /// Parks <paramref name="threads"/> green threads, measures the heap they hold, runs <paramref name="whileParked"/>
    /// (the idle-CPU reading uses it), then wakes every thread with one message and counts the ones that got it.
    /// </summary>
    public static ParkedFootprint Measure(int threads, int workers, Action? whileParked = null)
    {
        using var scheduler = new Scheduler(workers);
        var inboxes = new Mailbox<int>[threads];
        var received = 0L;
        var heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        for (var i = 0; i < threads; i++)
        {
            inboxes[i] = new Mailbox<int>();
            scheduler.Spawn(Receive(inboxes[i]));
        }

        // Measure only once every receiver has run up to its yield and parked: a thread still queued holds its
        // run-queue slot instead of its parked state.
        while (Interlocked.Read(ref received) == 0 && !AllParked(inboxes))
        {
            Thread.Sleep(10);
        }

        var heapAfter = GC.GetTotalMemory(forceFullCollection: true);
        whileParked?.Invoke();
        for (var i = 0; i < threads; i++)
        {
            inboxes[i].Send(1);
        }

        scheduler.WaitForAll();
        GC.KeepAlive(inboxes);
        return new ParkedFootprint(threads, workers, heapAfter - heapBefore, Interlocked.Read(ref received));

        IEnumerable<Event> Receive(Mailbox<int> inbox)
        {
            var message = inbox.Recv();
            yield return message;
            Interlocked.Add(ref received, message.Value);
        }
    }

    private static bool AllParked(Mailbox<int>[] inboxes) => Array.TrueForAll(inboxes, m => m.Receiver is not null && !m.Receiver.IsCompleted);
}
