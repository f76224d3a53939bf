using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// <see cref="Scheduler.SendEvery{T}(IMessageTarget{T}, T, TimeSpan, TimeSpan)"/> on a fake clock, under every
/// configuration: one message per period the clock passes, no burst after a jump, and nothing after a cancel returns.
/// </summary>
public abstract partial class RuntimeContract
{
    private static readonly TimeSpan Period = TimeSpan.FromMilliseconds(10);

    private static readonly TimeSpan Tick = TimeSpan.FromTicks(1);

    [Fact]
    public void SendEvery_OnFakeTime_SendsExactlyOneMessagePerPeriodTheClockPasses()
    {
        const int periods = 20;
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("ticks");
        var arrivals = new List<long>();
        var receiver = scheduler.Spawn(Receive());
        var start = clock.GetTimestamp();
        var ticks = scheduler.SendEvery(inbox, 1, Period, Period);
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the first tick is pending");

        for (var n = 1; n <= periods; n++)
        {
            clock.Advance(Period - Tick);
            Assert.Equal(n - 1, ticks.SentCount);
            clock.Advance(Tick);
            Assert.Equal(n, ticks.SentCount);
            Assert.Equal(1, Probe.PendingTimers(scheduler));

            // The clock stands still until the receiver has the message, so it reads the time the tick was sent.
            var expected = n;
            WaitUntil(() => Arrivals() == expected, $"tick {n} is received");
            Assert.Equal(start + (n * Period.Ticks), LastArrival());
        }

        Assert.True(ticks.Cancel());
        Join(receiver);
        Assert.Equal(0, ticks.DroppedCount);

        int Arrivals()
        {
            lock (arrivals)
            {
                return arrivals.Count;
            }
        }

        long LastArrival()
        {
            lock (arrivals)
            {
                return arrivals[^1];
            }
        }

        IEnumerable<Event> Receive()
        {
            var receive = inbox.Recv();
            for (var n = 0; n < periods; n++)
            {
                yield return receive;
                lock (arrivals)
                {
                    arrivals.Add(clock.GetTimestamp());
                }
            }
        }
    }

    [Fact]
    public void SendEvery_ClockJumpsManyPeriods_SendsOneMessage_AndTheNextTickKeepsTheSchedule()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new SharedMailbox<int>("jumped");
        var ticks = scheduler.SendEvery(inbox, 1, Period, Period);
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the first tick is pending");

        // From 0 to 10.5 periods at once: ticks 1 to 10 are due, one message goes, the rest are skipped.
        clock.Advance((Period * 10) + (Period / 2));
        Assert.Equal(1, ticks.SentCount);
        Assert.Equal(1, inbox.Count);

        // The next is tick 11, at 11 periods, not a period after the late one.
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the next tick is pending");
        clock.Advance((Period / 2) - Tick);
        Assert.Equal(1, ticks.SentCount);
        clock.Advance(Tick);
        Assert.Equal(2, ticks.SentCount);
        clock.Advance(Period);
        Assert.Equal(3, ticks.SentCount);
        Assert.Equal(3, inbox.Count);
        Assert.True(ticks.Cancel());
    }

    [Fact]
    public void SendEvery_Cancel_StopsIt_AndTakesItsTimerOut()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("stopped");
        var ticks = scheduler.SendEvery(inbox, 1, TimeSpan.Zero, Period);
        WaitUntil(() => ticks.SentCount == 1, "the first tick, due at once, is sent without the clock moving");
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the second tick is pending");
        clock.Advance(Period);
        clock.Advance(Period);
        Assert.Equal(3, ticks.SentCount);

        Assert.True(ticks.Cancel());
        Assert.True(ticks.IsCanceled);
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        clock.Advance(Period * 10);
        Assert.Equal(3, ticks.SentCount);
        Assert.Equal(3, inbox.Count);
        Assert.False(ticks.Cancel(), "a second cancel returned true");
        Assert.True(ticks.IsSent);
        Assert.Null(ticks.Exception);
    }

    /// <summary>
    /// Cancels racing the ticks: an OS thread moves the clock a period at a time while the test thread cancels twenty
    /// periodic sends one after another, from a different tick each round; from the moment a cancel returns, its
    /// target's count never moves again.
    /// </summary>
    [Fact]
    public void SendEvery_CancelsRacingTheTicks_NoMessageIsSentAfterTheyReturn()
    {
        const int rounds = 20;
        const int perRound = 20;
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var random = new Random(14);
        for (var round = 0; round < rounds; round++)
        {
            var inboxes = new SharedMailbox<int>[perRound];
            var sends = new IScheduledSend[perRound];
            for (var i = 0; i < perRound; i++)
            {
                inboxes[i] = new SharedMailbox<int>($"round {round}, send {i}");
                sends[i] = scheduler.SendEvery(inboxes[i], i, Period, Period);
            }

            WaitUntil(() => Probe.TimersSettled(scheduler, perRound), $"round {round}'s first ticks are pending");
            var advances = 0;
            var stop = 0;
            var advancer = new Thread(() =>
            {
                while (Volatile.Read(ref stop) == 0)
                {
                    clock.Advance(Period);
                    Interlocked.Increment(ref advances);
                }
            })
            { IsBackground = true };
            advancer.Start();

            var cancelAfter = random.Next(0, 4);
            WaitUntil(() => sends[0].SentCount >= cancelAfter, $"round {round} sends {cancelAfter} ticks");
            var atCancel = new int[perRound];
            for (var i = 0; i < perRound; i++)
            {
                Assert.True(sends[i].Cancel(), $"round {round}: the only cancel of send {i} returned false");
                atCancel[i] = inboxes[i].Count;
            }

            var advancesAtCancel = Volatile.Read(ref advances);
            WaitUntil(() => Volatile.Read(ref advances) >= advancesAtCancel + 3, "the clock moves on past three more ticks");
            Volatile.Write(ref stop, 1);
            advancer.Join();

            for (var i = 0; i < perRound; i++)
            {
                Assert.Equal(atCancel[i], inboxes[i].Count);
                Assert.Equal(atCancel[i], sends[i].SentCount);
                Assert.True(sends[i].IsCanceled);
            }
        }

        Assert.Equal(0, Probe.PendingTimers(scheduler));
    }

    [Fact]
    public void SendEvery_BoundedTargetFull_TheTickIsDroppedAndCounted_AndTheNextTickTriesAgain()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>(1, "small") { OutlivesReceiver = true };
        var ticks = scheduler.SendEvery(inbox, 1, Period, Period);
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the first tick is pending");

        for (var n = 0; n < 3; n++)
        {
            clock.Advance(Period);
        }

        Assert.Equal(1, ticks.SentCount);
        Assert.Equal(2, ticks.DroppedCount);
        Assert.Equal(0, Probe.WaitingSenders(inbox));
        Assert.Equal(1, inbox.Count);

        var taken = new List<int>();
        Run(TakeWhatIsThere(inbox, taken));
        clock.Advance(Period);
        Assert.Equal(2, ticks.SentCount);
        Assert.Equal(2, ticks.DroppedCount);
        Assert.True(ticks.Cancel());
    }

    [Fact]
    public void SendEvery_TargetThrows_ItStops_AndTheHandleKeepsTheException()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var target = new ThrowingTarget<int>();
        var ticks = scheduler.SendEvery(target, 1, Period, Period);
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the first tick is pending");

        clock.Advance(Period * 3);
        clock.Advance(Period * 3);
        Assert.Equal(1, target.Tries);
        Assert.Same(target.Thrown, ticks.Exception);
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        Assert.False(ticks.Cancel());
        Assert.False(ticks.IsCanceled);
    }
}
