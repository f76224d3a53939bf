using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void Never_ParksForGood_TheWaitGraphSaysNothingEndsIt_AndAStopEndsIt_FinallyOnce()
    {
        var entered = 0;
        var resumed = 0;
        var finallies = 0;
        var thread = Scheduler.Spawn(Body(), "idler");
        ThreadWait? Entry() => Scheduler.GetWaitGraph().Find(thread);
        WaitUntil(() => Volatile.Read(ref entered) == 1 && Entry() is { IsRunning: false } wait && ReferenceEquals(wait.Event, Event.Never), "the idler parks on Event.Never");

        var graph = Scheduler.GetWaitGraph();
        var entry = graph.Find(thread)!;
        Assert.Equal("nothing: Event.Never, which never completes", entry.Description);
        Assert.Empty(entry.WaitsOn);
        Assert.False(entry.EndsByTimer);
        Assert.False(entry.EndsFromOutside);
        Assert.Empty(graph.Cycles);
        Assert.Equal("Event.Never", Event.Never.ToString());

        Assert.True(thread.Stop("test"));
        WaitUntil(() => thread.IsCompleted, "the stopped idler ends");
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Equal(0, Volatile.Read(ref resumed));
        Assert.Equal(1, Volatile.Read(ref finallies));

        IEnumerable<Event> Body()
        {
            try
            {
                Interlocked.Increment(ref entered);
                yield return Event.Never;
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                Interlocked.Increment(ref finallies);
            }
        }
    }

    [Fact]
    public void Never_SchedulerDisposedWhileParked_EndsTheThread_FinallyOnce()
    {
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var entered = 0;
        var resumed = 0;
        var finallies = 0;
        var thread = scheduler.Spawn(Body(), "idler");
        WaitUntil(() => Volatile.Read(ref entered) == 1 && scheduler.GetWaitGraph().Find(thread) is { IsRunning: false } wait && ReferenceEquals(wait.Event, Event.Never), "the idler parks on Event.Never");

        scheduler.Dispose();
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        Assert.Equal(0, Volatile.Read(ref resumed));
        Assert.Equal(1, Volatile.Read(ref finallies));

        IEnumerable<Event> Body()
        {
            try
            {
                Interlocked.Increment(ref entered);
                yield return Event.Never;
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                Interlocked.Increment(ref finallies);
            }
        }
    }

    [Fact]
    public void Never_ManyThreadsStoppedAtAnyPoint_EachEnds_AndEachThatStartedRunsItsFinallyOnce()
    {
        // One shared event, threads stopped before their first turn, while running up to the yield, and parked:
        // every stop ends its thread exactly once.
        const int Threads = 200;
        var started = 0;
        var resumed = 0;
        var finallies = 0;
        var threads = new List<GreenThread>();
        for (var i = 0; i < Threads; i++)
        {
            threads.Add(Scheduler.Spawn(Body(i), $"idler {i}"));
            if (i % 2 == 0)
            {
                Assert.True(threads[i].Stop("early"));
            }
        }

        foreach (var thread in threads.Where((_, i) => i % 2 == 1))
        {
            Assert.True(thread.Stop("late"));
        }

        foreach (var thread in threads)
        {
            WaitUntil(() => thread.IsCompleted, $"{thread} ends after its stop");
            Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        }

        Assert.Equal(0, Volatile.Read(ref resumed));
        Assert.Equal(Volatile.Read(ref started), Volatile.Read(ref finallies));

        IEnumerable<Event> Body(int i)
        {
            try
            {
                Interlocked.Increment(ref started);
                if (i % 3 == 0)
                {
                    yield return Event.Yield;
                }

                yield return Event.Never;
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                Interlocked.Increment(ref finallies);
            }
        }
    }

    [Fact]
    public void Never_WithTimeout_IsAPureTimeout()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var results = new List<string>();
        TimedEvent<Event>? timed = null;
        var thread = scheduler.Spawn(Wait(), "timer");
        WaitUntil(() => Volatile.Read(ref timed) is { } t && Probe.ParkedWithDeadline(scheduler, t), "the thread parks on its timed Event.Never");
        var entry = scheduler.GetWaitGraph().Find(thread)!;
        Assert.Equal($"nothing: Event.Never, which never completes, or a timeout of {TimedWait}", entry.Description);
        Assert.True(entry.EndsByTimer);
        clock.Advance(TimedWait);
        Join(thread);
        Assert.Equal(["timed out"], results);

        IEnumerable<Event> Wait()
        {
            var wait = Event.Never.WithTimeout(TimedWait);
            Volatile.Write(ref timed, wait);
            yield return wait;
            results.Add(wait.TimedOut ? "timed out" : "completed");
        }
    }

    [Fact]
    public void Never_AsAChoiceBranch_IsNeverChosen_TheOtherBranchIs_EveryMessageOnce()
    {
        var inbox = new Mailbox<int>("beside never");
        inbox.Send(1);
        inbox.Send(2);
        var received = new List<int>();
        Choice? shared = null;
        var thread = Scheduler.Spawn(Body(), "chooser");

        // Two messages taken at once (the rotation starts at Event.Never for one of them), then a park until the third.
        WaitUntil(() => Volatile.Read(ref shared) is { } c && Probe.IsParked(c), "the chooser parks on Event.Never and the empty mailbox");
        Assert.Equal("one of: [nothing: Event.Never, which never completes]; [a message on Mailbox<Int32> 'beside never' (0 queued)]", Scheduler.GetWaitGraph().Find(thread)!.Description);
        inbox.Send(3);
        Join(thread);
        Assert.Equal([1, 2, 3], received);
        Assert.Equal(0, inbox.Count);

        IEnumerable<Event> Body()
        {
            var choice = new Choice(Event.Never, inbox.Recv());
            for (var i = 0; i < 3; i++)
            {
                if (i == 2)
                {
                    Volatile.Write(ref shared, choice);
                }

                yield return choice;
                Assert.Equal(1, choice.Index);
                received.Add(inbox.Recv().Value);
            }
        }
    }
}
