using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// Fair service: a thread woken from outside the workers is not left behind local work, a thread woken by a turn that
// then spins or blocks is not stranded in that worker's run-next slot, and the watchdog reports turns that hold a
// worker. None of these asserts elapsed time: they count turns, or wait for the thing itself.
public abstract partial class RuntimeContract
{
    /// <summary>Whether a woken thread can run on another worker than its waker's: not on one worker, nor when threads are pinned to their home.</summary>
    private bool WokenThreadCanMove => WorkerCount > 1 && Policy != SchedulingPolicy.Dedicated;

    [Fact]
    public void Wake_WakerThenSpins_WokenThreadRunsOnAnotherWorker() => WakeThen(ran =>
    {
        // Woken from a worker, the receiver goes to this worker's run-next slot; this turn then never ends until the
        // receiver has run, which only another worker can do.
        var spinner = default(SpinWait);
        var deadline = DateTime.UtcNow + Timeout;
        while (!ran.IsSet)
        {
            Assert.True(DateTime.UtcNow < deadline, "the woken receiver never ran while its waker spun");
            spinner.SpinOnce(sleep1Threshold: -1);
        }
    });

    [Fact]
    public void Wake_WakerThenBlocksItsWorker_WokenThreadRunsOnAnotherWorker() => WakeThen(ran =>
    {
        // The mistake the watchdog exists for: a synchronous wait on a worker (task.Wait(), .Result) right after a
        // wake-up. It blocks this worker; the receiver it woke must still run elsewhere.
        Assert.True(ran.Wait(Timeout), "the woken receiver never ran while its waker blocked its worker");
    });

    /// <summary>
    /// A green thread wakes a parked receiver and then, in the same turn, does <paramref name="thenHold"/>, which
    /// holds its worker until the receiver has run (it is given the event the receiver sets).
    /// </summary>
    private void WakeThen(Action<ManualResetEventSlim> thenHold)
    {
        if (!WokenThreadCanMove)
        {
            return;
        }

        var ran = new ManualResetEventSlim(false);
        var inbox = new Mailbox<int>("woken");
        var receiver = Scheduler.Spawn(Receive(), "receiver");
        WaitUntil(() => inbox.IsReceiverParked, "the receiver is parked");
        var waker = Scheduler.Spawn(Wake(), "waker");
        Join(waker);
        Join(receiver);
        Assert.True(ran.IsSet);

        IEnumerable<Event> Receive()
        {
            yield return inbox.Recv();
            ran.Set();
        }

        IEnumerable<Event> Wake()
        {
            inbox.Send(1);
            thenHold(ran);
            yield break;
        }
    }

    [Fact]
    public void OutsideWakeUp_BehindOverflowingLocalLoad_RunsWithinTheInjectInterval()
    {
        // Policies that keep local overflow out of the queue outside wake-ups use. (Dedicated workers queue both in
        // the home's inbound queue, and the shared queue holds every ready thread: there a thread woken from outside
        // waits its turn behind all of them.)
        if (Policy is SchedulingPolicy.Dedicated or SchedulingPolicy.SharedQueue)
        {
            return;
        }

        // Far more threads that yield forever than a run queue holds, so every worker's queue keeps overflowing.
        const int loaders = 2_000;
        const int wakeUps = 41;
        long turns = 0;
        var stop = 0;
        var inbox = new Mailbox<int>("outside");
        var sentAt = new long[wakeUps];
        var ranAt = new long[wakeUps];
        var woken = new SemaphoreSlim(0);

        // Spawned by a green thread, so they start in its worker's run queue: spawned from outside they would be
        // outside work themselves, queued ahead of the wake-ups.
        Run(SpawnLoad(), "spawner");
        var receiver = Scheduler.Spawn(Receive(wakeUps), "receiver");
        WaitUntil(() => Interlocked.Read(ref turns) > 10 * loaders, "the load has gone round a few times");
        for (var i = 0; i < wakeUps; i++)
        {
            WaitUntil(() => inbox.IsReceiverParked, "the receiver is parked");
            inbox.Send(i);

            // Read after the send: a sender preempted between a read and its send (the workers keep both cores busy)
            // would count turns that ran before the wake-up existed. Read after, a preemption can only shrink a gap.
            sentAt[i] = Interlocked.Read(ref turns);
            Assert.True(woken.Wait(Timeout), $"wake-up {i} from outside was not served within {Timeout}");
        }

        Volatile.Write(ref stop, 1);
        Join(receiver);
        WaitForAll();

        // Every worker looks at the inject queue at least once per InjectInterval (61) of its own turns, so about that
        // many turns per worker pass first; twice that is the bound. The median, because one preemption of the sender
        // right after its send shrinks that gap only. Behind the overflow, a wake-up waited tens of thousands of turns.
        var gaps = new long[wakeUps];
        for (var i = 0; i < wakeUps; i++)
        {
            gaps[i] = ranAt[i] - sentAt[i];
        }

        Array.Sort(gaps);
        var bound = 2 * 61 * WorkerCount;
        Assert.True(gaps[wakeUps / 2] <= bound, $"median turns before an outside wake-up ran: {gaps[wakeUps / 2]}, above {bound}; all: {string.Join(", ", gaps)}");

        IEnumerable<Event> SpawnLoad()
        {
            for (var i = 0; i < loaders; i++)
            {
                Scheduler.Spawn(Load());
            }

            yield break;
        }

        IEnumerable<Event> Load()
        {
            while (Volatile.Read(ref stop) == 0)
            {
                Interlocked.Increment(ref turns);
                yield return Event.Yield;
            }
        }

        IEnumerable<Event> Receive(int count)
        {
            var message = inbox.Recv();
            for (var i = 0; i < count; i++)
            {
                yield return message;
                Volatile.Write(ref ranAt[message.Value], Interlocked.Read(ref turns));
                woken.Release();
            }
        }
    }

    [Fact]
    public void OutsideWakeUps_ABurstBehindOverflowingLocalLoad_RunWithinTheirBatches()
    {
        // As above, with a burst: every parked thread woken at once from an OS thread. Each look at the inject queue
        // must serve a batch, not one thread, however full the local queue is.
        if (Policy is SchedulingPolicy.Dedicated or SchedulingPolicy.SharedQueue)
        {
            return;
        }

        const int loaders = 2_000;
        const int burst = 2_000;
        long turns = 0;
        var ran = 0;
        var stop = 0;
        var inboxes = Enumerable.Range(0, burst).Select(i => new Mailbox<int>($"burst {i}")).ToArray();
        var sentAt = new long[burst];
        var ranAt = new long[burst];
        var allRan = new ManualResetEventSlim();

        Run(SpawnLoad(), "spawner");
        var receivers = inboxes.Select((inbox, i) => Scheduler.Spawn(Receive(inbox, i), $"receiver {i}")).ToArray();
        WaitUntil(() => inboxes.All(inbox => inbox.IsReceiverParked), "every receiver is parked");
        WaitUntil(() => Interlocked.Read(ref turns) > 10 * loaders, "the load has gone round a few times");
        for (var i = 0; i < burst; i++)
        {
            inboxes[i].Send(i);

            // Read after the send, as above: a preemption between the two can only shrink a gap.
            sentAt[i] = Interlocked.Read(ref turns);
        }

        Assert.True(allRan.Wait(Timeout), $"{Volatile.Read(ref ran)} of {burst} threads woken from outside ran within {Timeout}");
        Volatile.Write(ref stop, 1);
        foreach (var receiver in receivers)
        {
            Join(receiver);
        }

        WaitForAll();

        // Load turns between each wake-up and its thread's turn. With a batch of up to 32 (InjectBatch) served a look,
        // and a look every 61 turns (InjectInterval) of each worker, the last of the burst runs after about burst / 32
        // looks, the median after half as many: the bound is twice the last's. The median, as above, because a
        // preempted worker or sender skews a few. Served one thread a look, the median waited about burst / 2 looks.
        var gaps = new long[burst];
        for (var i = 0; i < burst; i++)
        {
            gaps[i] = ranAt[i] - sentAt[i];
        }

        Array.Sort(gaps);
        var bound = 2 * (burst / 32 + 1) * 61;
        Assert.True(gaps[burst / 2] <= bound, $"median load turns before a thread woken in the burst ran: {gaps[burst / 2]}, above {bound}; 90th percentile {gaps[burst * 9 / 10]}, last {gaps[^1]}");

        IEnumerable<Event> SpawnLoad()
        {
            for (var i = 0; i < loaders; i++)
            {
                Scheduler.Spawn(Load());
            }

            yield break;
        }

        IEnumerable<Event> Load()
        {
            while (Volatile.Read(ref stop) == 0)
            {
                Interlocked.Increment(ref turns);
                yield return Event.Yield;
            }
        }

        IEnumerable<Event> Receive(Mailbox<int> inbox, int index)
        {
            yield return inbox.Recv();
            Volatile.Write(ref ranAt[index], Interlocked.Read(ref turns));
            if (Interlocked.Increment(ref ran) == burst)
            {
                allRan.Set();
            }
        }
    }

    [Fact]
    public void LongTurn_ThreadBlocksItsWorker_ReportedOnceNamingTheThread()
    {
        var threshold = TimeSpan.FromMilliseconds(20);
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, LongTurnThreshold = threshold });
        var reports = new ConcurrentQueue<LongTurnEventArgs>();
        var reported = new ManualResetEventSlim(false);
        scheduler.LongTurn += (_, e) =>
        {
            reports.Enqueue(e);
            reported.Set();
        };

        var blocker = scheduler.Spawn(Block(), "blocker");
        Assert.True(blocker.Wait(Timeout), "the blocking thread did not end");

        var report = Assert.Single(reports);
        Assert.Same(blocker, report.Thread);
        Assert.InRange(report.WorkerIndex, 0, WorkerCount - 1);
        Assert.True(report.Duration >= threshold, $"reported after {report.Duration}, before the threshold {threshold}");

        IEnumerable<Event> Block()
        {
            // Blocks its worker until the watchdog has reported it, then once more for several of the watchdog's
            // ticks, which must not report the same turn again.
#pragma warning disable TI0001 // A turn that blocks its worker is what the watchdog must report.
            Assert.True(reported.Wait(Timeout), "the watchdog never reported a turn that blocked its worker");
            Thread.Sleep(threshold * 3);
#pragma warning restore TI0001
            yield break;
        }
    }

    [Fact]
    public void LongTurn_AGcPauseDuringTheTurn_IsTakenOff_AndTheReportSaysHowMuch()
    {
        // A stand-in for the GC: while it "collects", every tick of the turn is pause time, and the watchdog must not
        // blame the thread however long that lasts; once the collection is over, the turn's own time counts.
        var threshold = TimeSpan.FromMilliseconds(20);
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, LongTurnThreshold = threshold });
        var clock = Stopwatch.StartNew();
        var collecting = 1;
        var pausedTotal = TimeSpan.Zero;
        var looks = 0;
        long firstLook = -1;
        Probe.StandInForGcPauses(scheduler, () =>
        {
            var pause = Volatile.Read(ref collecting) == 1 ? clock.Elapsed : pausedTotal;
            Interlocked.CompareExchange(ref firstLook, pause.Ticks, -1);
            Interlocked.Increment(ref looks);
            return pause;
        });
        var reports = new ConcurrentQueue<LongTurnEventArgs>();
        var reported = new ManualResetEventSlim(false);
        scheduler.LongTurn += (_, e) =>
        {
            reports.Enqueue(e);
            reported.Set();
        };
        var blocking = new ManualResetEventSlim(false);
        var release = new ManualResetEventSlim(false);
        var blocker = scheduler.Spawn(Block(), "blocker");
        Assert.True(blocking.Wait(Timeout), "the blocking thread did not start");

        // The watchdog reads the pause once when it sees the turn, then again at each look past the threshold: wait
        // for many such looks, all taken off as pause, before the collection ends. The pause is counted from the first
        // look, which a slow start can put well after the clock started (or one tick later, if that look raced the turn's
        // start): wait for four thresholds past it, and expect at least three.
        try
        {
            var lookedAt = Volatile.Read(ref looks);
            WaitUntil(
                () => Volatile.Read(ref looks) >= lookedAt + 10
                    && Interlocked.Read(ref firstLook) >= 0
                    && clock.Elapsed - TimeSpan.FromTicks(Interlocked.Read(ref firstLook)) > threshold * 4,
                "the watchdog looks at the long turn while the stand-in collects");
            Assert.Empty(reports);

            pausedTotal = clock.Elapsed;
            Volatile.Write(ref collecting, 0);
            Assert.True(reported.Wait(Timeout), "the turn was never reported once the collection was over");
        }
        finally
        {
            release.Set();
        }

        Assert.True(blocker.Wait(Timeout), "the blocking thread did not end");

        var report = Assert.Single(reports);
        Assert.Same(blocker, report.Thread);
        Assert.True(report.GcPause >= threshold * 3, $"the report counted {report.GcPause} of pause");
        Assert.True(report.Duration - report.GcPause >= threshold, $"reported after {report.Duration - report.GcPause} of its own time, before the threshold {threshold}");

        IEnumerable<Event> Block()
        {
            blocking.Set();
#pragma warning disable TI0001 // A turn that blocks its worker is what the watchdog must look at.
            Assert.True(release.Wait(Timeout), "the test never released the blocking thread");
#pragma warning restore TI0001
            yield break;
        }
    }

    [Fact]
    public void LongTurn_ShortTurnsOnly_NothingReported()
    {
        var reports = 0;
        Scheduler.LongTurn += (_, _) => Interlocked.Increment(ref reports);
        var ping = new Mailbox<int>("ping");
        var pong = new Mailbox<int>("pong");
        const int rounds = 20_000;
        var right = Scheduler.Spawn(Echo(), "echo");
        Run(Serve(), "server");
        Join(right);
        Assert.Equal(0, Volatile.Read(ref reports));

        IEnumerable<Event> Serve()
        {
            var reply = pong.Recv();
            for (var i = 0; i < rounds; i++)
            {
                ping.Send(i);
                yield return reply;
                Assert.Equal(i, reply.Value);
            }

            ping.Send(-1);
        }

        IEnumerable<Event> Echo()
        {
            var message = ping.Recv();
            while (true)
            {
                yield return message;
                if (message.Value < 0)
                {
                    yield break;
                }

                pong.Send(message.Value);
            }
        }
    }

    [Fact]
    public void LongTurnThreshold_ZeroOrNegative_Refused()
    {
        foreach (var threshold in new[] { TimeSpan.Zero, TimeSpan.FromSeconds(-1) })
        {
            var refused = Assert.Throws<ArgumentOutOfRangeException>(() => new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, LongTurnThreshold = threshold }));
            Assert.Contains("LongTurnThreshold", refused.Message, StringComparison.Ordinal);
        }

        using var silent = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, LongTurnThreshold = System.Threading.Timeout.InfiniteTimeSpan });
    }
}
