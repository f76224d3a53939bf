using System;
using System.Collections.Generic;
using System.Diagnostics;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// The cheap clock that timeouts read on the system clock: never behind the precise clock (a timeout counted from it
/// never fires early), and ahead of it by no more than its calibration allows.
/// </summary>
public sealed class CoarseClockTests
{
    [Fact]
    public void CoarseClock_OnLinux_IsCalibrated_AndNeverBehindThePreciseClock()
    {
        if (!OperatingSystem.IsLinux())
        {
            Assert.False(CoarseClock.IsReady, "the coarse clock is meant for Linux only");
            return;
        }

        using var scheduler = new Scheduler(1);
        _ = scheduler.Timers;
        Waiting.Until(() => CoarseClock.IsReady, "the coarse clock is calibrated");
        var largestLead = 0L;
        for (var i = 0; i < 1_000_000; i++)
        {
            var precise = Stopwatch.GetTimestamp();
            var coarse = CoarseClock.Now;
            Assert.True(coarse >= precise, $"the coarse clock read {coarse}, behind the precise clock's {precise}");
            largestLead = Math.Max(largestLead, coarse - precise);
        }

        // A tick of the kernel (1 to 10 ms) plus a millisecond, plus the calibration's polls: well under 50 ms.
        Assert.True(largestLead < Stopwatch.Frequency / 20, $"the coarse clock ran {largestLead} units ahead of the precise clock");
    }

    [Fact]
    public void TimedReceive_OnTheSystemClock_ArmsADeadlineNoEarlierThanItsTimeoutAfterThePark()
    {
        using var scheduler = new Scheduler(1);
        _ = scheduler.Timers;
        Waiting.Until(() => CoarseClock.IsReady || !OperatingSystem.IsLinux(), "the coarse clock is calibrated");
        var inbox = new Mailbox<int>("timed inbox");
        var timeout = TimeSpan.FromSeconds(30);
        var timed = inbox.Recv().WithTimeout(timeout);
        var starts = new long[5];
        var thread = scheduler.Spawn(Wait(), "waiter");
        for (var round = 0; round < starts.Length; round++)
        {
            Waiting.Until(() => Probe.ParkedWait(timed) == round + 1, $"the waiter parks in wait {round + 1}");
            var earliest = starts[round] + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
            Assert.True(Probe.Deadline(timed) >= earliest, $"wait {round + 1} was armed for {Probe.Deadline(timed)}, before {earliest}, its timeout after it began");
            inbox.Send(round);
        }

        Assert.True(thread.Wait(Waiting.Timeout), "the waiter never ended");

        IEnumerable<Event> Wait()
        {
            for (var round = 0; round < starts.Length; round++)
            {
                starts[round] = Stopwatch.GetTimestamp();
                yield return timed;
                Assert.Equal(round, timed.Inner.Value);
            }
        }
    }
}
