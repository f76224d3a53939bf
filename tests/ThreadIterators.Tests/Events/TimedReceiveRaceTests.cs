using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using Microsoft.Extensions.Time.Testing;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Forces the interleavings of a receive's timeout that timing alone almost never produces: the deadline fires after
/// the receiver published its wait but before it parked (no mark to take yet), and a fire that marked a wait expired
/// takes the mark of the receiver's next wait (a message woke it meanwhile). Every message is counted; nobody is left
/// parked beside a message, and no wait times out before its own deadline.
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class TimedReceiveRaceTests
{
    private static readonly TimeSpan Timeout = Waiting.Timeout;

    private static readonly TimeSpan TimedWait = TimeSpan.FromMilliseconds(10);

    public static TheoryData<int, SchedulingPolicy> Configurations()
    {
        var data = new TheoryData<int, SchedulingPolicy>();
        foreach (var policy in Enum.GetValues<SchedulingPolicy>())
        {
            data.Add(1, policy);
            data.Add(2, policy);
        }

        return data;
    }

    public static TheoryData<int, SchedulingPolicy, bool> ConfigurationsAndSends()
    {
        var data = new TheoryData<int, SchedulingPolicy, bool>();
        foreach (var policy in Enum.GetValues<SchedulingPolicy>())
        {
            foreach (var workers in new[] { 1, 2 })
            {
                data.Add(workers, policy, false);
                data.Add(workers, policy, true);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Configurations))]
    public void Timeout_ThatFiresBeforeTheReceiverParks_IsTakenByTheParkerItself(int workers, SchedulingPolicy policy)
    {
        var clock = new FakeTimeProvider();
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workers, Policy = policy, TimeProvider = clock });
        var inbox = new Mailbox<int>("timed inbox");
        var timed = inbox.Recv().WithTimeout(TimedWait);
        var results = new ConcurrentQueue<int>();
        var advanceInPark = 0;
        TestHooks.BeforeTimedPark = mailbox =>
        {
            // The entry is pending from the first wait; this fires it for the second, which has no mark yet.
            if (mailbox == inbox && Interlocked.Exchange(ref advanceInPark, 0) == 1)
            {
                clock.Advance(TimedWait * 2);
            }
        };

        try
        {
            var thread = scheduler.Spawn(Receive(timed, results, rounds: 3), "receiver");
            Waiting.Until(() => Probe.ParkedWithDeadline(scheduler, timed), "the receiver parks in its first wait");
            Volatile.Write(ref advanceInPark, 1);
            inbox.Send(1);
            Waiting.Until(() => results.Count == 2, "the second wait times out");
            Waiting.Until(() => Probe.ParkedWithDeadline(scheduler, timed), "the receiver parks in its third wait");
            inbox.Send(3);
            Assert.True(thread.Wait(Timeout), "the receiver never ended");
            Assert.Equal(new[] { 1, -1, 3 }, results);
            Assert.Equal(0, inbox.Count);
        }
        finally
        {
            TestHooks.BeforeTimedPark = null;
        }
    }

    [Theory]
    [MemberData(nameof(ConfigurationsAndSends))]
    public void Timeout_ThatTakesTheNextWaitsMark_PutsItBack_OrWakesForTheMessage(int workers, SchedulingPolicy policy, bool messageWhileHeld)
    {
        var clock = new FakeTimeProvider();
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = workers, Policy = policy, TimeProvider = clock });
        var inbox = new Mailbox<int>("timed inbox");
        var timed = inbox.Recv().WithTimeout(TimedWait);
        var results = new ConcurrentQueue<int>();
        using var expiredHeld = new ManualResetEventSlim();
        using var releaseExpired = new ManualResetEventSlim();
        var holdExpired = 0;
        var sendWhileMarkHeld = 0;
        TestHooks.AfterTimeoutExpired = mailbox =>
        {
            if (mailbox == inbox && Interlocked.Exchange(ref holdExpired, 0) == 1)
            {
                expiredHeld.Set();
                releaseExpired.Wait(Timeout);
            }
        };
        TestHooks.AfterStopTookMark = mailbox =>
        {
            // The timer holds the second wait's mark: this send finds none and wakes nobody.
            if (mailbox == inbox && Interlocked.Exchange(ref sendWhileMarkHeld, 0) == 1)
            {
                inbox.Send(2);
            }
        };

        try
        {
            var thread = scheduler.Spawn(Receive(timed, results, rounds: 3), "receiver");
            Waiting.Until(() => Probe.ParkedWithDeadline(scheduler, timed), "the receiver parks in its first wait");
            Volatile.Write(ref holdExpired, 1);
            var firer = new Thread(() => clock.Advance(TimedWait));
            firer.Start();
            Assert.True(expiredHeld.Wait(Timeout), "the deadline never fired");

            // The first wait is expired but its mark not taken: a message wins it, and the receiver parks again.
            inbox.Send(1);
            Waiting.Until(() => results.Count == 1 && Probe.ParkedWait(timed) == 2, "the receiver takes the message and parks in its second wait");
            Volatile.Write(ref sendWhileMarkHeld, messageWhileHeld ? 1 : 0);
            releaseExpired.Set();
            Assert.True(firer.Join(Timeout), "the firing thread never returned");
            if (!messageWhileHeld)
            {
                // The mark went back: the second wait is still parked, its deadline ahead, and a send wakes it.
                Assert.Equal(2, Probe.ParkedWait(timed));
                Assert.Single(results);
                inbox.Send(2);
            }

            Waiting.Until(() => results.Count == 2, "the second wait gets its message");
            Waiting.Until(() => Probe.ParkedWithDeadline(scheduler, timed), "the receiver parks in its third wait");
            clock.Advance(TimedWait);
            Assert.True(thread.Wait(Timeout), "the receiver never ended");
            Assert.Equal(new[] { 1, 2, -1 }, results);
            Assert.Equal(0, inbox.Count);
        }
        finally
        {
            TestHooks.AfterTimeoutExpired = null;
            TestHooks.AfterStopTookMark = null;
            releaseExpired.Set();
        }
    }

    /// <summary>Receives <paramref name="rounds"/> times with the timeout, recording each message, or -1 for a timeout.</summary>
    private static IEnumerable<Event> Receive(TimedEvent<ReceiveEvent<int>> timed, ConcurrentQueue<int> results, int rounds)
    {
        foreach (var _ in Enumerable.Range(0, rounds))
        {
            yield return timed;
            results.Enqueue(timed.TimedOut ? -1 : timed.Inner.Value);
        }
    }
}
