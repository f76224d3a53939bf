using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using Microsoft.Extensions.Time.Testing;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>The timer queue on its own, without a scheduler: order, moves, cancels racing fires, disposal, and size.</summary>
public sealed class TimerQueueTests
{
    [Theory]
    [InlineData(10_000_000, 1, 1)]
    [InlineData(1_000_000_000, 1, 100)]
    [InlineData(3, 1, 1)]
    [InlineData(3, TimeSpan.TicksPerSecond, 3)]
    [InlineData(3, TimeSpan.TicksPerSecond + 1, 4)]
    [InlineData(1_000, 10_001, 2)]
    [InlineData(1_000, -5, 0)]
    public void DeadlineAfter_IsInProviderUnits_RoundedUp(long frequency, long durationTicks, long expectedUnits)
    {
        using var queue = new TimerQueue(new OddFrequencyClock(frequency, now: 1_000));
        Assert.Equal(1_000 + expectedUnits, queue.DeadlineAfter(TimeSpan.FromTicks(durationTicks)));
    }

    [Fact]
    public void DeadlineAfter_SaturatesInsteadOfOverflowing()
    {
        using var queue = new TimerQueue(new OddFrequencyClock(1_000_000_000, now: long.MaxValue - 5));
        Assert.Equal(long.MaxValue, queue.DeadlineAfter(TimeSpan.FromDays(1)));
        Assert.Equal(long.MaxValue, queue.DeadlineAfter(TimeSpan.MaxValue));
    }

    [Fact]
    public void Cancel_IsTrueOnlyForAPendingEntry()
    {
        var clock = new FakeTimeProvider();
        using var queue = new TimerQueue(clock);
        var entry = new RecordingEntry(0);

        Assert.False(queue.Cancel(entry));
        queue.Schedule(entry, queue.DeadlineAfter(TimeSpan.FromMilliseconds(1)));
        Assert.True(entry.IsPending);
        Assert.True(queue.Cancel(entry));
        Assert.False(entry.IsPending);
        Assert.False(queue.Cancel(entry));
        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(0, entry.Fired);

        queue.Schedule(entry, queue.DeadlineAfter(TimeSpan.FromMilliseconds(1)));
        clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.Equal(1, entry.Fired);
        Assert.False(queue.Cancel(entry));
    }

    [Fact]
    public void EqualDeadlines_FireInScheduleOrder_AndAMoveCountsAsANewSchedule()
    {
        var clock = new FakeTimeProvider();
        using var queue = new TimerQueue(clock);
        var log = new ConcurrentQueue<RecordingEntry>();
        var entries = Enumerable.Range(0, 100).Select(i => new RecordingEntry(i, log)).ToArray();
        var early = Enumerable.Range(100, 10).Select(i => new RecordingEntry(i, log)).ToArray();
        var deadline = queue.DeadlineAfter(TimeSpan.FromMilliseconds(10));

        foreach (var entry in entries)
        {
            queue.Schedule(entry, deadline);
        }

        // Scheduled after the others, in reverse, but due a tick earlier: they fire first, in their own order.
        foreach (var entry in early.Reverse())
        {
            queue.Schedule(entry, deadline - 1);
        }

        queue.Schedule(entries[5], deadline);
        clock.Advance(TimeSpan.FromMilliseconds(10));

        var expected = early.Reverse().Concat(entries.Where(e => e.Id != 5)).Append(entries[5]).Select(e => e.Id);
        Assert.Equal(expected, log.Select(e => e.Id));
        Assert.All(entries.Concat(early), e => Assert.Equal(1, e.Fired));
    }

    [Fact]
    public void Schedule_OfAPendingEntry_MovesIt_LaterOrEarlier()
    {
        var clock = new FakeTimeProvider();
        using var queue = new TimerQueue(clock);
        var log = new ConcurrentQueue<RecordingEntry>();
        var a = new RecordingEntry(0, log);
        var b = new RecordingEntry(1, log);
        var c = new RecordingEntry(2, log);
        var start = queue.Now;
        var ms = TimeSpan.TicksPerMillisecond;

        queue.Schedule(a, start + (10 * ms));
        queue.Schedule(b, start + (20 * ms));
        queue.Schedule(c, start + (50 * ms));
        queue.Schedule(a, start + (30 * ms));
        queue.Schedule(c, start + (5 * ms));
        Assert.Equal(3, Probe.PendingTimers(queue));

        clock.Advance(TimeSpan.FromMilliseconds(5));
        Assert.Equal([2], log.Select(e => e.Id));
        clock.Advance(TimeSpan.FromMilliseconds(5));
        Assert.Equal([2], log.Select(e => e.Id));
        clock.Advance(TimeSpan.FromMilliseconds(10));
        Assert.Equal([2, 1], log.Select(e => e.Id));
        clock.Advance(TimeSpan.FromMilliseconds(10) - TimeSpan.FromTicks(1));
        Assert.Equal([2, 1], log.Select(e => e.Id));
        clock.Advance(TimeSpan.FromTicks(1));
        Assert.Equal([2, 1, 0], log.Select(e => e.Id));
        Assert.Equal(0, Probe.PendingTimers(queue));
    }

    [Fact]
    public void Schedule_OfAnEntryAlreadyDue_OnAFakeClock_FiresPromptly_ButNeverOnTheSchedulingThread()
    {
        var clock = new FakeTimeProvider();
        using var queue = new TimerQueue(clock);
        var due = new RecordingEntry(0);
        var past = new RecordingEntry(1);

        queue.Schedule(due, queue.Now);
        queue.Schedule(past, queue.Now - 1);

        Waiting.Until(() => due.Fired == 1 && past.Fired == 1, "entries due when scheduled fire without the clock moving");
        Assert.NotEqual(Environment.CurrentManagedThreadId, due.FiredOnThread);
        Assert.NotEqual(Environment.CurrentManagedThreadId, past.FiredOnThread);
    }

    [Fact]
    public void Cancel_WhileItsFireIsUnderWay_IsFalse_AndTheFireRunsOnce()
    {
        var clock = new FakeTimeProvider();
        using var queue = new TimerQueue(clock);
        var firing = 0;
        var release = 0;
        var entry = new RecordingEntry(0, onFire: () =>
        {
            Volatile.Write(ref firing, 1);
            Waiting.Until(() => Volatile.Read(ref release) == 1, "the test releases the fire");
        });
        queue.Schedule(entry, queue.DeadlineAfter(TimeSpan.FromMilliseconds(1)));

        var advancing = Started(() => clock.Advance(TimeSpan.FromMilliseconds(1)));
        Waiting.Until(() => Volatile.Read(ref firing) == 1, "the entry's fire starts");
        Assert.False(queue.Cancel(entry));
        Assert.False(entry.IsPending);
        Volatile.Write(ref release, 1);
        Assert.True(advancing.Join(Waiting.Timeout));
        Assert.Equal(1, entry.Fired);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ScheduleAndCancel_FromSeveralThreads_RacingTheFirer_AccountForEveryEntryOnce(bool fakeClock)
    {
        // Every run checks that each entry fired or was cancelled exactly once. Whether a run also shows both sides of
        // the race depends on the firer's timing (on a loaded machine it may lag behind every cancel), so a few runs
        // are allowed for that; one that shows it is required.
        var tallies = new List<string>();
        for (var run = 0; run < 5; run++)
        {
            if (ScheduleAndCancelOnce(fakeClock, out var tally))
            {
                return;
            }

            tallies.Add(tally);
        }

        Assert.Fail($"The race was never run, in {tallies.Count} runs: {string.Join(" | ", tallies)}");
    }

    private static bool ScheduleAndCancelOnce(bool fakeClock, out string tally)
    {
        const int threads = 4;
        const int perThread = 20_000;
        const int Lag = 2_000;
        const int AdvanceTicks = 20;
        var clock = new FakeTimeProvider();
        using var queue = new TimerQueue(fakeClock ? clock : TimeProvider.System);
        var entries = Enumerable.Range(0, threads * perThread).Select(i => new RecordingEntry(i)).ToArray();
        var cancelled = new bool[entries.Length];
        var deadlines = new long[entries.Length];
        var running = threads;

        // The firer races the schedulers: on a fake clock a thread that keeps advancing it, on the system clock the
        // queue's own thread with deadlines a few hundred microseconds out.
        var advancer = Started(() =>
        {
            while (fakeClock && Volatile.Read(ref running) > 0)
            {
                clock.Advance(TimeSpan.FromTicks(AdvanceTicks));
            }
        });

        var workers = Enumerable.Range(0, threads).Select(t => new Thread(() =>
        {
            // Every third entry is first scheduled an hour out, so the second schedule surely moves it. Every other
            // entry is cancelled: half of those at once, most of which win against the fire, and half a few thousand
            // schedules later and past their deadline, most of which lose to it.
            var random = new Random(t);
            var first = t * perThread;
            var end = (t + 1) * perThread;
            for (var i = first; i < end + Lag; i++)
            {
                if (i < end)
                {
                    var entry = entries[i];
                    if (i % 3 == 0)
                    {
                        queue.Schedule(entry, queue.DeadlineAfter(TimeSpan.FromHours(1)));
                    }

                    deadlines[i] = Deadline(random);
                    queue.Schedule(entry, deadlines[i]);
                    if (i % 4 == 0)
                    {
                        cancelled[i] = queue.Cancel(entry);
                    }
                }

                var lagged = i - Lag;
                if (lagged >= first && lagged % 4 == 2)
                {
                    // On the fake clock, two advances past: an arming that raced an advance is late by one (the
                    // provider's due times are relative to its clock when Change runs).
                    var passed = deadlines[lagged] + (fakeClock ? 2 * AdvanceTicks : 0);
                    Waiting.Until(() => queue.Now >= passed, "the clock passes the deadline");
                    cancelled[lagged] = queue.Cancel(entries[lagged]);
                }
            }

            Interlocked.Decrement(ref running);
        })).ToArray();
        foreach (var worker in workers)
        {
            worker.Start();
        }

        foreach (var worker in workers)
        {
            Assert.True(worker.Join(Waiting.Timeout));
        }

        Assert.True(advancer.Join(Waiting.Timeout));
        var firedDuringRun = entries.Count(e => e.Fired > 0);
        if (fakeClock)
        {
            clock.Advance(TimeSpan.FromSeconds(1));
        }

        Waiting.Until(
            () => Probe.PendingTimers(queue) == 0 && entries.All(e => e.Fired + (cancelled[e.Id] ? 1 : 0) >= 1),
            () => $"every entry fired or was cancelled ({entries.Count(e => e.Fired + (cancelled[e.Id] ? 1 : 0) == 0)} neither)");
        Assert.All(entries, e => Assert.True(e.Fired + (cancelled[e.Id] ? 1 : 0) == 1, $"{e} fired {e.Fired} time(s) and was {(cancelled[e.Id] ? string.Empty : "not ")}cancelled"));

        // The race was run, not dodged: some cancels won, and some found the entry fired or firing.
        tally = $"fired during the run: {firedDuringRun}; cancelled at once: {entries.Count(e => e.Id % 4 == 0 && cancelled[e.Id])} won, {entries.Count(e => e.Id % 4 == 0 && e.Fired == 1)} lost; lagged: {entries.Count(e => e.Id % 4 == 2 && cancelled[e.Id])} won, {entries.Count(e => e.Id % 4 == 2 && e.Fired == 1)} lost";
        return cancelled.Any(c => c) && entries.Any(e => e.Id % 2 == 0 && e.Fired == 1);

        long Deadline(Random random) => fakeClock
            ? queue.Now + random.Next(0, AdvanceTicks)
            : queue.DeadlineAfter(TimeSpan.FromMicroseconds(random.Next(0, 50)));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Dispose_WhileEntriesArePendingAndFiring_NoFireRunsAfterItReturns(bool fakeClock)
    {
        var clock = new FakeTimeProvider();
        var queue = new TimerQueue(fakeClock ? clock : TimeProvider.System);
        var returned = 0;
        var lateFires = 0;
        var entries = Enumerable.Range(0, 10_000).Select(i => new RecordingEntry(i, onFire: () =>
        {
            if (Volatile.Read(ref returned) == 1)
            {
                Interlocked.Increment(ref lateFires);
            }
        })).ToArray();
        var start = queue.Now;
        var spread = queue.DeadlineAfter(TimeSpan.FromMilliseconds(2)) - start;
        for (var i = 0; i < entries.Length; i++)
        {
            // Spread over 2 ms, so some have fired, some are firing and some wait when the queue is disposed.
            queue.Schedule(entries[i], start + (spread * i / entries.Length));
        }

        var advancing = Started(() =>
        {
            if (fakeClock)
            {
                clock.Advance(TimeSpan.FromMilliseconds(1));
            }
        });
        Waiting.Until(() => entries.Any(e => e.Fired > 0), "firing has begun");
        var timerThread = Probe.TimerThread(queue);
        queue.Dispose();
        Volatile.Write(ref returned, 1);

        Assert.True(advancing.Join(Waiting.Timeout));
        Assert.Equal(0, Probe.PendingTimers(queue));
        Assert.All(entries, e => Assert.False(e.IsPending));
        if (fakeClock)
        {
            clock.Advance(TimeSpan.FromSeconds(1));
        }
        else
        {
            Assert.False(timerThread!.IsAlive, "the timer thread outlived the queue's disposal");
        }

        var late = new RecordingEntry(-1);
        queue.Schedule(late, queue.Now);
        Assert.False(late.IsPending);
        Assert.False(queue.Cancel(late));
        Assert.Equal(0, Volatile.Read(ref lateFires));
        if (fakeClock)
        {
            // The advance passed half the deadlines; the other half were pending at disposal and never fired.
            Assert.Contains(entries, e => e.Fired == 0);
        }
    }

    [Fact]
    public void Dispose_FromInsideAFire_StopsTheBatch_WithoutWaitingForItself()
    {
        var clock = new FakeTimeProvider();
        TimerQueue? queue = null;
        var first = new RecordingEntry(0, onFire: () => queue!.Dispose());
        var second = new RecordingEntry(1);
        queue = new TimerQueue(clock);
        var deadline = queue.DeadlineAfter(TimeSpan.FromMilliseconds(1));
        queue.Schedule(first, deadline);
        queue.Schedule(second, deadline);

        clock.Advance(TimeSpan.FromMilliseconds(1));

        Assert.Equal(1, first.Fired);
        Assert.Equal(0, second.Fired);
    }

    [Fact]
    public void Fire_ThatThrows_SurfacesOnTheFiringThread_AndDisposalStillReturns()
    {
        var clock = new FakeTimeProvider();
        var queue = new TimerQueue(clock);
        var entry = new RecordingEntry(0, onFire: () => throw new InvalidOperationException("a runtime bug in Fire"));
        queue.Schedule(entry, queue.DeadlineAfter(TimeSpan.FromMilliseconds(1)));

        var thrown = Assert.Throws<InvalidOperationException>(() => clock.Advance(TimeSpan.FromMilliseconds(1)));
        Assert.Equal("a runtime bug in Fire", thrown.Message);
        queue.Dispose();
    }

    /// <summary>Starts an OS thread running <paramref name="action"/>: tests here block on purpose, so no thread-pool thread.</summary>
    private static Thread Started(Action action)
    {
        var thread = new Thread(() => action()) { IsBackground = true };
        thread.Start();
        return thread;
    }

    /// <summary>
    /// A million pending entries fit well under 200 MB, entries included, and all of them fire or cancel. Counts
    /// memory, so it runs alone; the benchmark records the figure (docs/timers.md).
    /// </summary>
    [Collection(MeasurementsRunAlone.Name)]
    public sealed class OneMillion
    {
        [Fact]
        public void OneMillionEntries_ScheduledThenHalfCancelled_TheRestFireOnce_InWellUnder200MB()
        {
            const int count = 1_000_000;
            var clock = new FakeTimeProvider();
            using var queue = new TimerQueue(clock);
            var before = GC.GetTotalMemory(forceFullCollection: true);
            var entries = new RecordingEntry[count];
            var start = queue.Now;
            for (var i = 0; i < count; i++)
            {
                entries[i] = new RecordingEntry(i);
                queue.Schedule(entries[i], start + 1 + ((i * 7919L) % 1000));
            }

            var pendingBytes = GC.GetTotalMemory(forceFullCollection: true) - before;
            Assert.Equal(count, Probe.PendingTimers(queue));
            Assert.True(pendingBytes < 200L * 1024 * 1024, $"a million pending entries took {pendingBytes / (1024 * 1024)} MB");

            for (var i = 0; i < count; i += 2)
            {
                Assert.True(queue.Cancel(entries[i]));
            }

            clock.Advance(TimeSpan.FromTicks(1000));
            Assert.Equal(0, Probe.PendingTimers(queue));
            for (var i = 0; i < count; i++)
            {
                if (entries[i].Fired != i % 2)
                {
                    Assert.Fail($"entry {i} fired {entries[i].Fired} time(s)");
                }
            }

            GC.KeepAlive(entries);
        }
    }
}
