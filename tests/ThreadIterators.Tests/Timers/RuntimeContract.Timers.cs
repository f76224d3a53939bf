using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>Sleeps on a fake clock, under every configuration: they end when the clock passes their deadline, not before.</summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public void Sleep_OnFakeTime_WakesExactlyWhenTheClockPassesItsDeadline()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var duration = TimeSpan.FromMilliseconds(50);
        var start = clock.GetTimestamp();
        long wokeAt = 0;
        var sleeper = scheduler.Spawn(Sleeper());

        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the sleeper parks on its sleep");
        clock.Advance(duration - TimeSpan.FromTicks(1));
        Assert.Equal(1, Probe.PendingTimers(scheduler));
        Assert.False(sleeper.IsCompleted, "the sleeper ended a tick before its deadline");
        Assert.Equal(0, Interlocked.Read(ref wokeAt));

        clock.Advance(TimeSpan.FromTicks(1));
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        Join(sleeper);
        Assert.Equal(start + duration.Ticks, Interlocked.Read(ref wokeAt));

        IEnumerable<Event> Sleeper()
        {
            yield return Event.Sleep(duration);
            Interlocked.Exchange(ref wokeAt, clock.GetTimestamp());
        }
    }

    [Fact]
    public void Sleep_OnFakeTime_EachStepOfTheClockWakesExactlyTheSleepersItPasses_AndOneWorkerWakesThemInOrder()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        const int perDeadline = 5;
        var steps = new[] { 30, 10, 20 };
        var woken = new ConcurrentQueue<(int Step, int Index)>();
        for (var i = 0; i < perDeadline; i++)
        {
            foreach (var step in steps)
            {
                scheduler.Spawn(Sleeper(step, i));
            }
        }

        WaitUntil(() => Probe.TimersSettled(scheduler, perDeadline * steps.Length), "every sleeper parks");
        foreach (var step in steps.Order())
        {
            clock.Advance(TimeSpan.FromMilliseconds(10));
            var expected = perDeadline * (step / 10);
            Waiting.Until(() => woken.Count == expected, () => $"{expected} sleepers have woken at {step} ms ({woken.Count} have)");
            Assert.Equal((perDeadline * steps.Length) - expected, Probe.PendingTimers(scheduler));
            Assert.All(woken, w => Assert.True(w.Step <= step, $"a sleeper of {w.Step} ms woke at {step} ms"));
        }

        Assert.True(scheduler.WaitForAll(Timeout));
        if (WorkerCount == 1)
        {
            // One worker parks them in spawn order, so within a deadline they were scheduled in index order.
            var expectedOrder = steps.Order().SelectMany(step => Enumerable.Range(0, perDeadline).Select(i => (step, i)));
            Assert.Equal(expectedOrder, woken);
        }

        IEnumerable<Event> Sleeper(int milliseconds, int index)
        {
            yield return Event.Sleep(TimeSpan.FromMilliseconds(milliseconds));
            woken.Enqueue((milliseconds, index));
        }
    }

    [Fact]
    public void Sleep_OnFakeTime_OneSleepEventYieldedAgainAndByTwoThreadsAtOnce_EachSleepCountsFromItsOwnYield()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var shared = Event.Sleep(TimeSpan.FromMilliseconds(10));
        var rounds = new int[2];
        var threads = new[] { scheduler.Spawn(Sleeper(0)), scheduler.Spawn(Sleeper(1)) };

        for (var round = 1; round <= 3; round++)
        {
            WaitUntil(() => Probe.TimersSettled(scheduler, 2), "both threads sleep on the shared event");
            clock.Advance(TimeSpan.FromMilliseconds(10) - TimeSpan.FromTicks(1));
            Assert.Equal(2, Probe.PendingTimers(scheduler));
            clock.Advance(TimeSpan.FromTicks(1));
            var expected = round;
            WaitUntil(() => Volatile.Read(ref rounds[0]) == expected && Volatile.Read(ref rounds[1]) == expected, $"both threads end sleep {round}");
        }

        WaitUntil(() => Probe.TimersSettled(scheduler, 2), "both threads sleep a fourth time");
        clock.Advance(TimeSpan.FromMilliseconds(10));
        foreach (var thread in threads)
        {
            Join(thread);
        }

        IEnumerable<Event> Sleeper(int index)
        {
            for (var i = 0; i < 4; i++)
            {
                yield return shared;
                Interlocked.Increment(ref rounds[index]);
            }
        }
    }

    [Fact]
    public void Dispose_WhileThreadsSleepOnFakeTime_EndsThem_AndAdvancingAfterwardsWakesNothing()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        const int sleepers = 50;
        var cleanedUp = 0;
        var resumed = 0;
        for (var i = 0; i < sleepers; i++)
        {
            scheduler.Spawn(Sleeper(TimeSpan.FromMilliseconds(1 + i)));
        }

        WaitUntil(() => Probe.TimersSettled(scheduler, sleepers), "every thread sleeps");
        scheduler.Dispose();

        Assert.Equal(sleepers, Volatile.Read(ref cleanedUp));
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(0, Volatile.Read(ref resumed));

        IEnumerable<Event> Sleeper(TimeSpan duration)
        {
            try
            {
                yield return Event.Sleep(duration);
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                Interlocked.Increment(ref cleanedUp);
            }
        }
    }

    [Fact]
    public void Sleep_OnTheSystemClock_AfterTheSchedulerIsDisposed_TheTimerThreadHasStopped()
    {
        var sleeper = Scheduler.Spawn(Sleeper());
        WaitUntil(() => Probe.TimersSettled(Scheduler, 1), "the thread sleeps");
        var timerThread = Probe.TimerThread(Scheduler.Timers);
        Assert.NotNull(timerThread);

        Scheduler.Dispose();
        Assert.False(timerThread.IsAlive, "the timer thread outlived its scheduler's disposal");
        Assert.Equal(ThreadOutcome.Canceled, sleeper.Outcome);

        static IEnumerable<Event> Sleeper()
        {
            yield return Event.Sleep(TimeSpan.FromDays(1));
        }
    }

    [Fact]
    public void TimeProvider_Null_IsRefused_NamingTheOption()
    {
        var options = new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, TimeProvider = null! };
        var refused = Assert.Throws<ArgumentNullException>(() => new Scheduler(options));
        Assert.Equal("options.TimeProvider", refused.ParamName);
    }
}
