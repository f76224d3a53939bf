using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// <see cref="Scheduler.SendAfter{T}(IMessageTarget{T}, T, TimeSpan)"/> on a fake clock, under every configuration: the
/// message arrives when the clock passes its deadline, not a tick before, and a cancel that returns true means it
/// never arrives, even when the cancel races the firing.
/// </summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public void SendAfter_OnFakeTime_ArrivesExactlyWhenTheClockPassesItsDeadline()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<string>("timed");
        var delay = TimeSpan.FromMilliseconds(50);
        var start = clock.GetTimestamp();
        long receivedAt = 0;
        string? received = null;
        var receiver = scheduler.Spawn(Receive());
        WaitUntil(() => inbox.IsReceiverParked, "the receiver parks on its empty mailbox");

        var send = scheduler.SendAfter(inbox, "ding", delay);
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the send is pending");
        clock.Advance(delay - TimeSpan.FromTicks(1));
        Assert.False(send.IsSent, "the message went a tick before its deadline");
        Assert.Equal(1, Probe.PendingTimers(scheduler));
        Assert.Equal(0, inbox.Count);

        clock.Advance(TimeSpan.FromTicks(1));
        Assert.True(send.IsSent, "the clock passed the deadline and the message did not go");
        Assert.Equal(1, send.SentCount);
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        Join(receiver);
        Assert.Equal("ding", received);
        Assert.Equal(start + delay.Ticks, Interlocked.Read(ref receivedAt));
        Assert.False(send.Cancel(), "a cancel after the message arrived returned true");
        Assert.False(send.IsCanceled);
        Assert.Null(send.Exception);

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            yield return message;
            received = message.Value;
            Interlocked.Exchange(ref receivedAt, clock.GetTimestamp());
        }
    }

    [Fact]
    public void SendAfter_CancelledBeforeTheDeadline_ReturnsTrue_AndTheMessageNeverArrives()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("never");
        var send = scheduler.SendAfter(inbox, 7, TimeSpan.FromMilliseconds(10));
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the send is pending");
        clock.Advance(TimeSpan.FromMilliseconds(10) - TimeSpan.FromTicks(1));

        Assert.True(send.Cancel());
        Assert.True(send.IsCanceled);
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(0, inbox.Count);
        Assert.False(send.IsSent);
        Assert.Equal(0, send.SentCount);
        Assert.False(send.Cancel(), "a second cancel returned true");
        Assert.True(send.IsCanceled);
    }

    [Fact]
    public void SendAfter_CancelledAfterItFired_ReturnsFalse_AndTheMessageIsThere()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("kept");
        var send = scheduler.SendAfter(inbox, 7, TimeSpan.FromMilliseconds(10));
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the send is pending");
        clock.Advance(TimeSpan.FromMilliseconds(10));

        Assert.False(send.Cancel());
        Assert.False(send.IsCanceled);
        Assert.True(send.IsSent);
        Assert.Equal(1, inbox.Count);
        var taken = new List<int>();
        Run(TakeWhatIsThere(inbox, taken));
        Assert.Equal([7], taken);
    }

    [Fact]
    public void SendAfter_ZeroDelay_SendsFromTheTimerSide_WithoutTheClockMoving()
    {
        var scheduler = CreateSchedulerWithFakeTime(out _);
        var inbox = new SharedMailbox<int>("now");
        var send = scheduler.SendAfter(inbox, 1, TimeSpan.Zero);
        WaitUntil(() => send.IsSent, "a send due now goes without the clock moving");
        Assert.True(inbox.TryRecv(out var message));
        Assert.Equal(1, message);
    }

    [Fact]
    public void SendAfter_OnTheSystemClock_Arrives()
    {
        var inbox = new Mailbox<int>("system clock");
        var received = 0;
        var receiver = Scheduler.Spawn(Receive());
        var send = Scheduler.SendAfter(inbox, 42, TimeSpan.FromMilliseconds(1));
        Join(receiver);
        Assert.Equal(42, received);

        // Marked sent just after the send returns on the timer thread, so perhaps after the receiver has it.
        WaitUntil(() => send.IsSent, "the send counts itself sent");

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            yield return message;
            received = message.Value;
        }
    }

    [Fact]
    public void SendAfter_ToASharedMailboxAndARouter_EachGetsItsMessage()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var shared = new SharedMailbox<int>("shared");
        var routees = new[] { new Mailbox<int>("routee 0"), new Mailbox<int>("routee 1") };
        var router = new Router<int>(RoutingStrategy.RoundRobin, routees);
        var sends = new[]
        {
            scheduler.SendAfter(shared, 1, TimeSpan.FromMilliseconds(1)),
            scheduler.SendAfter(router, 2, TimeSpan.FromMilliseconds(2)),
            scheduler.SendAfter(router, 3, TimeSpan.FromMilliseconds(2)),
        };
        WaitUntil(() => Probe.TimersSettled(scheduler, 3), "the sends are pending");

        clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.True(shared.TryRecv(out var first));
        Assert.Equal(1, first);
        Assert.Equal(0, routees.Sum(r => r.Count));

        clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.All(sends, s => Assert.True(s.IsSent));
        Assert.Equal([1, 1], routees.Select(r => r.Count));
    }

    /// <summary>
    /// The invariant that matters: for every send, <c>Cancel() == true</c> exactly when its message never arrives.
    /// OS threads cancel sends while the test thread moves the clock through their deadlines, one tick at a time, and
    /// every message is counted.
    /// </summary>
    [Fact]
    public void SendAfter_CancelsRacingTheFiring_TrueExactlyForTheMessagesThatNeverArrive()
    {
        const int rounds = 20;
        const int perRound = 500;
        const int ticks = 50;
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("raced");
        var arrived = new int[rounds * perRound];
        var receiver = scheduler.Spawn(CountArrivals());
        var cancelledTotal = 0;

        for (var round = 0; round < rounds; round++)
        {
            var sends = new IScheduledSend[perRound];
            var cancelled = new bool[perRound];
            for (var i = 0; i < perRound; i++)
            {
                sends[i] = scheduler.SendAfter(inbox, (round * perRound) + i, TimeSpan.FromTicks(1 + (i % ticks)));
            }

            WaitUntil(() => Probe.TimersSettled(scheduler, perRound), $"round {round}'s sends are pending");
            using var go = new Barrier(3);
            var cancellers = Enumerable.Range(0, 2).Select(c => Started(() =>
            {
                go.SignalAndWait();

                // Each canceller takes every other send, from either end, so both race the clock all the way through.
                for (var k = 0; k < perRound / 2; k++)
                {
                    var i = c == 0 ? 2 * k : perRound - 1 - (2 * k);
                    cancelled[i] = sends[i].Cancel();
                }
            })).ToArray();

            go.SignalAndWait();
            for (var t = 0; t < ticks; t++)
            {
                clock.Advance(TimeSpan.FromTicks(1));
            }

            foreach (var canceller in cancellers)
            {
                canceller.Join();
            }

            for (var i = 0; i < perRound; i++)
            {
                Assert.Equal(cancelled[i], sends[i].IsCanceled);
                Assert.Equal(!cancelled[i], sends[i].IsSent);
                cancelledTotal += cancelled[i] ? 1 : 0;
            }

            var expected = ((round + 1) * perRound) - cancelledTotal;
            Waiting.Until(() => Arrivals() == expected, () => $"the {expected} messages not cancelled by round {round} arrive ({Arrivals()} have)");
            Assert.Equal(0, Probe.PendingTimers(scheduler));
        }

        // Every deadline has passed: whatever was going to arrive has. Check each message against its cancel.
        scheduler.Dispose();
        Assert.Equal(ThreadOutcome.Canceled, receiver.Outcome);
        for (var i = 0; i < arrived.Length; i++)
        {
            Assert.True(arrived[i] <= 1, $"message {i} arrived {arrived[i]} times");
        }

        Assert.Equal((rounds * perRound) - cancelledTotal, arrived.Sum());

        int Arrivals()
        {
            var sum = 0;
            for (var i = 0; i < arrived.Length; i++)
            {
                sum += Volatile.Read(ref arrived[i]);
            }

            return sum;
        }

        IEnumerable<Event> CountArrivals()
        {
            var receive = inbox.Recv();
            while (true)
            {
                yield return receive;
                Interlocked.Increment(ref arrived[receive.Value]);
            }
        }
    }

    [Fact]
    public void SendAfter_BoundedTargetFullAtTheDeadline_TheMessageWaitsForRoom_AndCannotBeCancelledMeanwhile()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>(1, "full");
        inbox.Send(0);
        var send = scheduler.SendAfter(inbox, 1, TimeSpan.FromMilliseconds(1));
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the send is pending");
        clock.Advance(TimeSpan.FromMilliseconds(1));

        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the message waits for room");
        Assert.False(send.IsSent);
        Assert.False(send.Cancel(), "a cancel of a message waiting for room returned true");
        Assert.False(send.IsCanceled);
        Assert.Null(send.Exception);

        var taken = new List<int>();
        var receiver = scheduler.Spawn(ReceiveInto(inbox, 2, taken));
        Join(receiver);
        Assert.Equal([0, 1], taken);
        WaitUntil(() => send.IsSent, "the send counts itself sent");
        Assert.Equal(0, send.DroppedCount);
    }

    [Fact]
    public void SendAfter_SchedulerDisposedWhileTheMessageWaitsForRoom_ItIsNotSent_AndTheHandleSaysWhy()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>(1, "full at disposal");
        inbox.Send(0);
        var send = scheduler.SendAfter(inbox, 1, TimeSpan.FromMilliseconds(1));
        WaitUntil(() => Probe.TimersSettled(scheduler, 1), "the send is pending");
        clock.Advance(TimeSpan.FromMilliseconds(1));
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the message waits for room");

        scheduler.Dispose();
        WaitUntil(() => send.Exception is not null, "the wait for room ends with the disposal");
        Assert.IsType<ObjectDisposedException>(send.Exception);
        Assert.False(send.IsSent);
        Assert.False(send.IsCanceled);
        Assert.Equal(1, inbox.Count);
        var taken = new List<int>();
        Run(TakeWhatIsThere(inbox, taken));
        Assert.Equal([0], taken);
    }

    [Fact]
    public void Dispose_WithSendsPending_SendsNothingAfterwards_AndTheirCancelsReturnTrue()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("after disposal");
        var sends = Enumerable.Range(0, 100).Select(i => scheduler.SendAfter(inbox, i, TimeSpan.FromMilliseconds(1 + i))).ToList();
        sends.Add(scheduler.SendEvery(inbox, -1, TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(1)));
        WaitUntil(() => Probe.TimersSettled(scheduler, 101), "every send is pending");

        scheduler.Dispose();
        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(0, inbox.Count);
        Assert.All(sends, s => Assert.False(s.IsSent));
        Assert.All(sends, s => Assert.True(s.Cancel(), $"{s} was pending at disposal, and its cancel returned false"));
        Assert.All(sends, s => Assert.Null(s.Exception));
        Assert.Throws<ObjectDisposedException>(() => scheduler.SendAfter(inbox, 0, TimeSpan.Zero));
        Assert.Throws<ObjectDisposedException>(() => scheduler.SendEvery(inbox, 0, TimeSpan.Zero, TimeSpan.FromSeconds(1)));
    }

    [Fact]
    public void SendAfter_BadArguments_AreRefused_NamingTheCulprit()
    {
        var scheduler = CreateSchedulerWithFakeTime(out _);
        var inbox = new Mailbox<int>("unused");

        Assert.Equal("target", Assert.Throws<ArgumentNullException>(() => scheduler.SendAfter(null!, 1, TimeSpan.Zero)).ParamName);
        Assert.Equal("delay", Assert.Throws<ArgumentOutOfRangeException>(() => scheduler.SendAfter(inbox, 1, TimeSpan.FromTicks(-1))).ParamName);
        Assert.Equal("delay", Assert.Throws<ArgumentOutOfRangeException>(() => scheduler.SendAfter(inbox, 1, System.Threading.Timeout.InfiniteTimeSpan)).ParamName);
        var tooLong = Assert.Throws<ArgumentOutOfRangeException>(() => scheduler.SendAfter(inbox, 1, TimeSpan.MaxValue));
        Assert.Equal("delay", tooLong.ParamName);
        Assert.Contains("last timestamp of the scheduler's clock", tooLong.Message, StringComparison.Ordinal);

        Assert.Equal("target", Assert.Throws<ArgumentNullException>(() => scheduler.SendEvery(null!, 1, TimeSpan.Zero, TimeSpan.FromSeconds(1))).ParamName);
        Assert.Equal("initialDelay", Assert.Throws<ArgumentOutOfRangeException>(() => scheduler.SendEvery(inbox, 1, TimeSpan.FromTicks(-1), TimeSpan.FromSeconds(1))).ParamName);
        Assert.Equal("period", Assert.Throws<ArgumentOutOfRangeException>(() => scheduler.SendEvery(inbox, 1, TimeSpan.Zero, TimeSpan.Zero)).ParamName);
        Assert.Equal("period", Assert.Throws<ArgumentOutOfRangeException>(() => scheduler.SendEvery(inbox, 1, TimeSpan.Zero, TimeSpan.FromTicks(-1))).ParamName);
        Assert.Equal("period", Assert.Throws<ArgumentOutOfRangeException>(() => scheduler.SendEvery(inbox, 1, TimeSpan.Zero, TimeSpan.MaxValue)).ParamName);
        Assert.Equal(0, Probe.PendingTimers(scheduler));

        // Long but within the clock: a century is fine.
        Assert.True(scheduler.SendAfter(inbox, 1, TimeSpan.FromDays(36_525)).Cancel());
    }

    [Fact]
    public void SendAfter_TargetThrows_TheClockStillAdvances_AndTheHandleKeepsTheException()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var target = new ThrowingTarget<int>();
        var send = scheduler.SendAfter(target, 1, TimeSpan.FromMilliseconds(1));
        var after = scheduler.SendAfter(new Mailbox<int>("after"), 2, TimeSpan.FromMilliseconds(1));
        WaitUntil(() => Probe.TimersSettled(scheduler, 2), "the sends are pending");

        clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.Same(target.Thrown, send.Exception);
        Assert.False(send.IsSent);
        Assert.False(send.Cancel());
        Assert.True(after.IsSent, "a send due with the one whose target threw was lost");
    }

    [Fact]
    public void ScheduledSend_ToString_NamesTheTargetAndTheState_ForTheDebugger()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("shown");
        var once = scheduler.SendAfter(inbox, 1, TimeSpan.FromMilliseconds(1));
        var every = scheduler.SendEvery(inbox, 2, TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(1));
        Assert.Equal("a send of Int32 to Mailbox<Int32> 'shown' after a delay (pending)", once.ToString());
        Assert.Equal("a periodic send of Int32 to Mailbox<Int32> 'shown' (running, 0 sent, 0 dropped)", every.ToString());
        var display = once.GetType().GetCustomAttributes(typeof(System.Diagnostics.DebuggerDisplayAttribute), inherit: false);
        Assert.Equal("{ToString(),nq}", Assert.IsType<System.Diagnostics.DebuggerDisplayAttribute>(Assert.Single(display)).Value);

        WaitUntil(() => Probe.TimersSettled(scheduler, 2), "both sends are pending");
        clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.True(every.Cancel());
        Assert.Equal("a send of Int32 to Mailbox<Int32> 'shown' after a delay (sent)", once.ToString());
        Assert.Equal("a periodic send of Int32 to Mailbox<Int32> 'shown' (canceled, 1 sent, 0 dropped)", every.ToString());
    }

    /// <summary>Receives <paramref name="count"/> messages into <paramref name="taken"/>.</summary>
    private static IEnumerable<Event> ReceiveInto(Mailbox<int> inbox, int count, List<int> taken)
    {
        for (var i = 0; i < count; i++)
        {
            var message = inbox.Recv();
            yield return message;
            taken.Add(message.Value);
        }
    }

    /// <summary>Takes the messages already in <paramref name="inbox"/> into <paramref name="taken"/>, without waiting.</summary>
    private static IEnumerable<Event> TakeWhatIsThere(Mailbox<int> inbox, List<int> taken)
    {
        while (inbox.TryRecv(out var message))
        {
            taken.Add(message);
        }

        yield break;
    }

    /// <summary>Starts an OS thread running <paramref name="action"/>; these tests block on purpose, so no thread-pool thread.</summary>
    private static Thread Started(Action action)
    {
        var thread = new Thread(() => action()) { IsBackground = true };
        thread.Start();
        return thread;
    }
}
