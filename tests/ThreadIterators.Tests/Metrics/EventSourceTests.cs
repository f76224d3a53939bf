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
