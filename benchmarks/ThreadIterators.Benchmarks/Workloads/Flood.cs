using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Flood: one producer sends M numbered messages as fast as it can to one consumer through a mailbox of capacity C
/// (or an unbounded one), and the consumer checks they arrive in order. The consumer samples the managed heap every
/// 2^20 messages, so a run reports how far the heap grew while the producer outran the consumer: a bounded mailbox
/// keeps it flat, an unbounded one holds every message the consumer has not reached.
/// </summary>
public static class Flood
{
    /// <summary>Messages between two heap samples.</summary>
    private const int SampleEvery = 1 << 20;

    /// <summary>A green producer yielding <see cref="Mailbox{T}.Put"/> into a mailbox of <paramref name="capacity"/> messages (0: unbounded, sending with <see cref="Mailbox{T}.Send(T)"/>).</summary>
    public static FloodResult GreenThreads(Scheduler scheduler, long messages, int capacity)
    {
        var inbox = capacity > 0 ? new Mailbox<long>(capacity, "flood") : new Mailbox<long>("flood");
        var result = new StrongBox<FloodResult>();
        var heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        scheduler.Spawn(Consumer(inbox, messages, heapBefore, result), "consumer");
        scheduler.Spawn(Producer(inbox, messages, capacity > 0), "producer");
        scheduler.WaitForAll();
        return result.Value!;
    }

    /// <summary>The .NET baseline: an async producer and consumer on a bounded <see cref="Channel{T}"/> (or an unbounded one).</summary>
    public static FloodResult Channels(long messages, int capacity)
    {
        var channel = capacity > 0
            ? Channel.CreateBounded<long>(new BoundedChannelOptions(capacity) { SingleReader = true, SingleWriter = true, FullMode = BoundedChannelFullMode.Wait })
            : Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        var consumer = Task.Run(async () =>
        {
            long inOrder = 0;
            long peak = 0;
            for (long i = 0; i < messages; i++)
            {
                var message = await channel.Reader.ReadAsync().ConfigureAwait(false);
                if (message == i)
                {
                    inOrder++;
                }

                if ((i & (SampleEvery - 1)) == 0)
                {
                    peak = Math.Max(peak, GC.GetTotalMemory(forceFullCollection: false) - heapBefore);
                }
            }

            return new FloodResult(inOrder, peak);
        });
        Task.Run(async () =>
        {
            for (long i = 0; i < messages; i++)
            {
                await channel.Writer.WriteAsync(i).ConfigureAwait(false);
            }
        }).GetAwaiter().GetResult();
        return consumer.GetAwaiter().GetResult();
    }

    private static IEnumerable<Event> Producer(Mailbox<long> inbox, long messages, bool bounded)
    {
        for (long i = 0; i < messages; i++)
        {
            if (bounded)
            {
                yield return inbox.Put(i);
            }
            else
            {
                inbox.Send(i);
            }
        }
    }

    private static IEnumerable<Event> Consumer(Mailbox<long> inbox, long messages, long heapBefore, StrongBox<FloodResult> result)
    {
        long inOrder = 0;
        long peak = 0;
        var message = inbox.Recv();
        for (long i = 0; i < messages; i++)
        {
            yield return message;
            if (message.Value == i)
            {
                inOrder++;
            }

            if ((i & (SampleEvery - 1)) == 0)
            {
                peak = Math.Max(peak, GC.GetTotalMemory(forceFullCollection: false) - heapBefore);
            }
        }

        result.Value = new FloodResult(inOrder, peak);
    }
}
