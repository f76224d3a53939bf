using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
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
        const int members = 100;
        const int tokens = 10;
        const long hopsPerToken = 200_000;
        using var scheduler = new Scheduler(workers);
        var inboxes = new Mailbox<long>[members];
        for (var i = 0; i < members; i++)
        {
            inboxes[i] = new Mailbox<long>();
        }

        var finished = new StrongBox<long>();
        for (var i = 0; i < members; i++)
        {
            scheduler.Spawn(Member(inboxes[i], inboxes[(i + 1) % members], finished));
        }

        // The first round sizes every mailbox for the tokens in flight; the second, through the same threads and
        // mailboxes, is the steady state and must add nothing.
        Circulate(inboxes, finished, tokens, hopsPerToken, expectedFinished: tokens);
        var before = GC.GetTotalAllocatedBytes(precise: true);
        Circulate(inboxes, finished, tokens, hopsPerToken, expectedFinished: 2 * tokens);
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - before;

        const long hops = tokens * hopsPerToken;
        Assert.True(allocated < hops / 10, $"{allocated} bytes allocated for {hops} hops ({(double)allocated / hops:F3} B/hop)");

        static IEnumerable<Event> Member(Mailbox<long> inbox, Mailbox<long> next, StrongBox<long> finished)
        {
            var token = inbox.Recv();
            while (true)
            {
                yield return token;
                if (token.Value == 0)
                {
                    Interlocked.Increment(ref finished.Value);
                }
                else
                {
                    next.Send(token.Value - 1);
                }
            }
        }
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

        Waiting.Until(() => Array.TrueForAll(inboxes, m => m.IsReceiverParked), "the receivers all park");

        var perThread = (GC.GetTotalMemory(forceFullCollection: true) - before) / (double)count;
        Assert.True(perThread < 300, $"{perThread:F0} bytes per parked thread");
        GC.KeepAlive(inboxes);

        static IEnumerable<Event> Forward(Mailbox<int> inbox)
        {
            var message = inbox.Recv();
            yield return message;
        }
    }

    /// <summary>Sends the tokens into the ring and waits, without sleeping, until each has made its hops.</summary>
    private static void Circulate(Mailbox<long>[] inboxes, StrongBox<long> finished, int tokens, long hops, long expectedFinished)
    {
        for (var t = 0; t < tokens; t++)
        {
            inboxes[t * inboxes.Length / tokens].Send(hops);
        }

        Waiting.Until(
            () => Volatile.Read(ref finished.Value) == expectedFinished,
            () => $"{expectedFinished} tokens finish (only {Volatile.Read(ref finished.Value)} did)");
    }
    [Fact]
    public void Watch_CostsUnder64BytesPerWatch_OnAThreadWatchedMany()
    {
        const int Watches = 10_000;
        using var scheduler = new Scheduler(1);
        var hold = new Mailbox<int>("hold");
        var exits = new Mailbox<ThreadExit>("exits");
        var watched = scheduler.Spawn(Hold(hold), "watched");
        var first = watched.Watch(exits);
        var watches = new ThreadWatch[Watches];
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < Watches; i++)
        {
            watches[i] = watched.Watch(exits);
        }

        var perWatch = (double)(GC.GetAllocatedBytesForCurrentThread() - before) / Watches;
        Assert.True(perWatch < 64, $"{perWatch:F1} bytes per watch");
        Assert.True(perWatch > 0, "the measurement saw the watches");

        // The first watch of a thread also makes the thread's exit event, once.
        var lone = scheduler.Spawn(Hold(new Mailbox<int>("hold once")), "watched once");
        before = GC.GetAllocatedBytesForCurrentThread();
        var once = lone.Watch(exits);
        var firstWatch = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(firstWatch <= 160, $"{firstWatch} bytes for the first watch of a thread");
        Assert.True(first.Remove() && once.Remove() && watches[^1].Remove());

        static IEnumerable<Event> Hold(Mailbox<int> hold)
        {
            yield return hold.Recv();
        }
    }
}
