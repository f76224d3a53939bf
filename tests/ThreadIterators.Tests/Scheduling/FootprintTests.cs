using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using ThreadIterators.Samples.Ring;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// What the hot path allocates and what a parked thread costs, measured with the runtime's own counters.
/// These read allocations, not time, so they are deterministic enough to assert on.
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class FootprintTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Ring_SteadyState_AllocatesLessThanOneByteInTenPerHop(int workers)
    {
        const int n = 100;
        const int m = 20_000;
        using var scheduler = new Scheduler(workers);
        RunRing(scheduler, n, m);

        var before = GC.GetTotalAllocatedBytes(precise: true);
        RunRing(scheduler, n, m);
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - before;

        // The warm-up run filled the node pools for M messages in flight. Spawning 102 threads with their mailboxes
        // is a few tens of kilobytes; the 2,000,000 hops must add nothing.
        const long hops = (long)n * m;
        Assert.True(allocated < hops / 10, $"{allocated} bytes allocated for {hops} hops ({(double)allocated / hops:F3} B/hop)");
    }

    [Fact]
    public void ParkedThread_WithEmptyMailbox_CostsUnder300Bytes()
    {
        const int count = 100_000;
        using var scheduler = new Scheduler(1);
        var inboxes = new Mailbox<int>[count];
        var before = GC.GetTotalMemory(forceFullCollection: true);
        for (var i = 0; i < count; i++)
        {
            inboxes[i] = new Mailbox<int>();
            scheduler.Spawn(Forward(inboxes[i]));
        }

        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (!Array.TrueForAll(inboxes, m => m.IsReceiverParked))
        {
            Assert.True(DateTime.UtcNow < deadline, "the receivers did not all park");
            System.Threading.Thread.Yield();
        }

        var perThread = (GC.GetTotalMemory(forceFullCollection: true) - before) / (double)count;
        Assert.True(perThread < 300, $"{perThread:F0} bytes per parked thread");
        GC.KeepAlive(inboxes);

        static IEnumerable<Event> Forward(Mailbox<int> inbox)
        {
            var message = inbox.Recv();
            yield return message;
        }
    }

    private static void RunRing(Scheduler scheduler, int n, int m)
    {
        var received = new StrongBox<long>();
        var ring = scheduler.Spawn(RingBenchmark.Run(scheduler, n, m, received));
        Assert.True(ring.Wait(TimeSpan.FromSeconds(60)), "the ring did not finish");
        Assert.True(scheduler.WaitForAll(TimeSpan.FromSeconds(60)), "the forwarders did not finish");
        Assert.Equal(m, received.Value);
    }
}
