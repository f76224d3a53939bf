using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.Tracing;
using System.Linq;
using System.Threading;

namespace ThreadIterators.Tests;

/// <summary>
/// The <c>ThreadIterators</c> event source under every configuration, read through an in-process
/// <see cref="EventListener"/> as dotnet-trace reads it: a known workload writes its start, every spawn and end with
/// its outcome, an unobserved fault, a dead letter, a long turn and its stop, each naming this scheduler.
/// </summary>
/// <remarks>
/// Run alone: a listener is process-wide, so while it listens every scheduler of the process writes its events, and
/// the other tests' timing would be this test's to answer for.
/// </remarks>
[Collection(MeasurementsRunAlone.Name)]
public sealed class EventSourceTests
{
    [Theory]
    [MemberData(nameof(EveryConfiguration.WorkersAndPolicies), MemberType = typeof(EveryConfiguration))]
    public void Events_OfAKnownWorkload_TellTheStart_EverySpawnAndEnd_AFault_ADeadLetter_ALongTurn_AndTheStop(int workerCount, SchedulingPolicy policy)
    {
        using var events = new EventsRecorder();
        var scheduler = new Scheduler(new SchedulerOptions
        {
            WorkerCount = workerCount,
            Policy = policy,
            Name = "traced",
            LongTurnThreshold = TimeSpan.FromMilliseconds(50),
        });
        var number = scheduler.Number;
        using var turnHeard = new ManualResetEventSlim();
        scheduler.LongTurn += (_, _) => turnHeard.Set();
        scheduler.UnobservedFault += (_, _) => { };
        var ids = new List<long>();
        GreenThread? faulty = null;
        try
        {
            // A fault nobody observes (kept reachable, so that the disposal reports it, not a later finalizer); a
            // receiver that ends, then a message to its mailbox; a turn that blocks.
            faulty = scheduler.Spawn(ThrowsAfterAYield(), "faulty");
            ids.Add(faulty.Id);
            var inbox = new Mailbox<int>($"ended inbox of scheduler {number}");
            var receiver = scheduler.SpawnReceiver(inbox, Nothing(), "receiver");
            ids.Add(receiver.Id);
            receiver.Wait(TimeSpan.FromSeconds(60));
            inbox.Send(1);
            var blocker = scheduler.Spawn(BlocksUntil(turnHeard), "blocker");
            ids.Add(blocker.Id);
            Assert.True(scheduler.WaitForAll(TimeSpan.FromSeconds(60)), "The workload did not end.");
        }
        finally
        {
            scheduler.Dispose();
            GC.KeepAlive(faulty);
        }

        var start = Assert.Single(events.Of(1), e => (long)e.Payload![1]! == number);
        Assert.Contains("'traced'", (string)start.Payload![0]!, StringComparison.Ordinal);
        var spawns = events.Of(3).Where(e => (long)e.Payload![0]! == number).Select(e => (long)e.Payload![1]!).Order().ToList();
        Assert.Equal(ids.Order(), spawns);
        var ends = events.Of(4).Where(e => (long)e.Payload![0]! == number).ToDictionary(e => (long)e.Payload![1]!, e => (ThreadOutcome)(long)e.Payload![2]!);
        Assert.Equal([ThreadOutcome.Faulted, ThreadOutcome.Completed, ThreadOutcome.Completed], ids.Select(id => ends[id]));
        var fault = Assert.Single(events.Of(5), e => ((string)e.Payload![0]!).Contains($"#{number} ", StringComparison.Ordinal));
        Assert.Contains("'faulty'", (string)fault.Payload![1]!, StringComparison.Ordinal);
        Assert.Contains(nameof(InvalidOperationException), (string)fault.Payload![2]!, StringComparison.Ordinal);
        var letter = Assert.Single(events.Of(6), e => ((string)e.Payload![1]!).Contains($"ended inbox of scheduler {number}'", StringComparison.Ordinal));
        Assert.Equal(typeof(int).FullName, letter.Payload![0]);
        Assert.Equal(nameof(DeadLetterReason.SentAfterReceiverEnded), letter.Payload![2]);
        Assert.Contains(events.Of(7), e => (long)e.Payload![0]! == number && (long)e.Payload![1]! == ids[2] && (long)e.Payload![2]! >= 50_000);
        Assert.Single(events.Of(2), e => (long)e.Payload![0]! == number);
    }

    private static IEnumerable<Event> ThrowsAfterAYield()
    {
        yield return Event.Yield;
        throw new InvalidOperationException("told to fail");
    }

    [Theory]
    [MemberData(nameof(EveryConfiguration.WorkersAndPolicies), MemberType = typeof(EveryConfiguration))]
    public void SchedulingEvents_TellEveryParkItsWakeUp_AndEverySteal(int workerCount, SchedulingPolicy policy)
    {
        using var events = new EventsRecorder();
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workerCount, Policy = policy });
        var number = scheduler.Number;
        long steals;
        var ids = new List<long>();
        try
        {
            // A ping-pong of 200 round trips, beside 500 short threads spawned from outside for idle workers to steal.
            var ping = new Mailbox<int>($"ping of scheduler {number}");
            var pong = new Mailbox<int>($"pong of scheduler {number}");
            ids.Add(scheduler.SpawnReceiver(pong, Ponger(ping, pong, 200), "ponger").Id);
            ids.Add(scheduler.SpawnReceiver(ping, Pinger(ping, pong, 200), "pinger").Id);
            for (var i = 0; i < 500; i++)
            {
                scheduler.Spawn(YieldsTwice());
            }

            Assert.True(scheduler.WaitForAll(TimeSpan.FromSeconds(60)), "The workload did not end.");
            steals = scheduler.SumOfWorkers(static w => Volatile.Read(ref w.Counters.Steals)) + Volatile.Read(ref scheduler.Counts.Steals);
        }
        finally
        {
            scheduler.Dispose();
        }

        List<(long Thread, long Worker)> Of(int id) =>
            events.Of(id).Where(e => (long)e.Payload![0]! == number).Select(e => ((long)e.Payload![1]!, (long)e.Payload![2]!)).ToList();
        var parks = Of(8);
        var wakes = Of(9);

        // A park owes its thread one wake-up, and the workload ended: as many of each, thread by thread. Strictly
        // alternating, the ping-pong parks each of its two threads at least once.
        foreach (var id in parks.Select(p => p.Thread).Concat(wakes.Select(w => w.Thread)).Distinct())
        {
            Assert.Equal(parks.Count(p => p.Thread == id), wakes.Count(w => w.Thread == id));
        }

        Assert.All(ids, id => Assert.Contains(parks, p => p.Thread == id));
        Assert.All(parks, p => Assert.InRange(p.Worker, 0, workerCount - 1));
        Assert.All(wakes, w => Assert.InRange(w.Worker, -1, workerCount - 1));

        // Every steal the scheduler counted, and none besides.
        Assert.Equal(steals, Of(10).Count);
    }

    [Fact]
    public void DeadlockEvents_NameACycleOfJoins_AndAWaitGraphsCycle()
    {
        using var events = new EventsRecorder();
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = 2, Name = "deadlocked" });
        scheduler.UnobservedFault += (_, _) => { };

        // Two threads that ask each other, and so never receive: a cycle in the wait-for graph.
        var left = new Mailbox<ReplyTo<int>>("left inbox");
        var right = new Mailbox<ReplyTo<int>>("right inbox");
        scheduler.SpawnReceiver(left, Asks(right), "left");
        scheduler.SpawnReceiver(right, Asks(left), "right");

        // Both parked on their asks first (each look at the graph that finds the cycle writes the event too).
        Assert.True(SpinWait.SpinUntil(() => scheduler.GetWaitGraph().Cycles.Count == 1, TimeSpan.FromSeconds(60)), "The two asks did not deadlock.");
        Assert.Throws<WaitTimeoutException>(() => scheduler.WaitForAllOrThrow(TimeSpan.FromMilliseconds(200)));

        // Two threads that join each other: refused at the second join.
        var firstInbox = new Mailbox<GreenThread>("first joiner's inbox");
        var secondInbox = new Mailbox<GreenThread>("second joiner's inbox");
        var first = scheduler.SpawnReceiver(firstInbox, Joins(firstInbox), "first joiner");
        var second = scheduler.SpawnReceiver(secondInbox, Joins(secondInbox), "second joiner");
        firstInbox.Send(second);
        secondInbox.Send(first);
        Assert.Contains("A cycle of joins", Assert.Throws<InvalidOperationException>(() => first.Wait(TimeSpan.FromSeconds(60))).Message, StringComparison.Ordinal);
        Assert.Contains("A cycle of joins", Assert.Throws<InvalidOperationException>(() => second.Wait(TimeSpan.FromSeconds(60))).Message, StringComparison.Ordinal);

        var deadlocks = events.Of(11).Select(e => ((string)e.Payload![0]!, (string)e.Payload![1]!)).Where(d => d.Item1.Contains("'deadlocked'", StringComparison.Ordinal)).ToList();
        Assert.Contains(deadlocks, d => d.Item2.Contains("'left'", StringComparison.Ordinal) && d.Item2.Contains("'right'", StringComparison.Ordinal));
        Assert.Contains(deadlocks, d => d.Item2.StartsWith("A cycle of joins", StringComparison.Ordinal) && d.Item2.Contains("joiner", StringComparison.Ordinal));
    }

    private static IEnumerable<Event> Pinger(Mailbox<int> ping, Mailbox<int> pong, int trips)
    {
        for (var i = 0; i < trips; i++)
        {
            pong.Send(i);
            yield return ping.Recv();
        }
    }

    private static IEnumerable<Event> Ponger(Mailbox<int> ping, Mailbox<int> pong, int trips)
    {
        for (var i = 0; i < trips; i++)
        {
            yield return pong.Recv();
            ping.Send(i);
        }
    }

    private static IEnumerable<Event> YieldsTwice()
    {
        yield return Event.Yield;
        yield return Event.Yield;
    }

    private static IEnumerable<Event> Asks(Mailbox<ReplyTo<int>> server)
    {
        yield return server.Ask((ReplyTo<int> reply) => reply, Timeout.InfiniteTimeSpan);
    }

    private static IEnumerable<Event> Joins(Mailbox<GreenThread> inbox)
    {
        // Told whom to join once both threads exist.
        var other = inbox.Recv();
        yield return other;
        yield return other.Value.Exited;
    }

    private static IEnumerable<Event> Nothing()
    {
        yield break;
    }

    private static IEnumerable<Event> BlocksUntil(ManualResetEventSlim heard)
    {
        // Holds its worker on purpose until the watchdog has reported the turn: the long turn under test.
#pragma warning disable TI0001
        heard.Wait(TimeSpan.FromSeconds(60));
#pragma warning restore TI0001
        yield break;
    }

    /// <summary>An in-process session of the ThreadIterators provider, every keyword, verbose; keeps what it hears.</summary>
    private sealed class EventsRecorder : EventListener
    {
        private readonly ConcurrentQueue<EventWrittenEventArgs> _heard = new();

        public IEnumerable<EventWrittenEventArgs> Of(int id) => _heard.Where(e => e.EventId == id);

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == "ThreadIterators")
            {
                EnableEvents(eventSource, EventLevel.Verbose, EventKeywords.All);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData) => _heard.Enqueue(eventData);
    }
}
