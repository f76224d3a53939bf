using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Time.Testing;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Waits with a timeout, on a fake clock, under every configuration: what completes them just before, exactly at and
/// just after the deadline, and racing it; every message, room and credit counted.
/// </summary>
public abstract partial class RuntimeContract
{
    /// <summary>When, against a timed wait's deadline, what it waits for arrives.</summary>
    public enum Arrival
    {
        /// <summary>One clock unit before the deadline: the wait completes.</summary>
        JustBefore,

        /// <summary>The clock reaches the deadline first: the wait times out, and what arrives next goes to the next wait.</summary>
        AtTheDeadline,

        /// <summary>The clock passes the deadline by one unit first: as <see cref="AtTheDeadline"/>.</summary>
        JustAfter,

        /// <summary>The clock reaches the deadline on one OS thread while it arrives on another: either, nothing lost.</summary>
        Racing,
    }

    private const int TimeoutRounds = 40;

    private static readonly TimeSpan TimedWait = TimeSpan.FromMilliseconds(10);

    [Theory]
    [InlineData(Arrival.JustBefore)]
    [InlineData(Arrival.AtTheDeadline)]
    [InlineData(Arrival.JustAfter)]
    [InlineData(Arrival.Racing)]
    public void Timeout_MailboxReceive_EveryMessageReceivedOnce_InOrder_NoneTakenByATimeout(Arrival arrival)
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("timed inbox");
        var timed = inbox.Recv().WithTimeout(TimedWait);
        var log = RunDeadlineRounds(scheduler, clock, arrival, timed, prepare: null, arrive: inbox.Send, take: e => e.Value);

        Assert.Equal(Enumerable.Range(0, TimeoutRounds), log.Where(v => v >= 0));
        Assert.Equal(0, inbox.Count);
    }

    [Theory]
    [InlineData(Arrival.JustBefore)]
    [InlineData(Arrival.AtTheDeadline)]
    [InlineData(Arrival.JustAfter)]
    [InlineData(Arrival.Racing)]
    public void Timeout_SharedMailboxReceive_EveryMessageReceivedOnce_InOrder_NoneTakenByATimeout(Arrival arrival)
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new SharedMailbox<int>("timed shared inbox");
        var timed = inbox.CreateReceiveEvent().WithTimeout(TimedWait);
        var log = RunDeadlineRounds(scheduler, clock, arrival, timed, prepare: null, arrive: inbox.Send, take: e => e.Value);

        Assert.Equal(Enumerable.Range(0, TimeoutRounds), log.Where(v => v >= 0));
        Assert.False(inbox.TryRecv(out _), "a message was left in the mailbox");
    }

    [Theory]
    [InlineData(Arrival.JustBefore)]
    [InlineData(Arrival.AtTheDeadline)]
    [InlineData(Arrival.JustAfter)]
    [InlineData(Arrival.Racing)]
    public void Timeout_Put_ATimedOutPutSendsNothing_EveryPutSentOnce_InOrder(Arrival arrival)
    {
        // A full mailbox of one slot: each put waits for the test to take a message, which is the arrival of room.
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        const int Filler = -100;
        var outbox = new SharedMailbox<int>(1, "full outbox");
        Assert.True(outbox.TrySend(Filler));
        var taken = new List<int>();
        var sent = 0;
        var put = outbox.CreatePutEvent();
        var timed = put.WithTimeout(TimedWait);
        var log = RunDeadlineRounds(
            scheduler,
            clock,
            arrival,
            timed,
            prepare: round => put.For(round),
            arrive: _ =>
            {
                Assert.True(outbox.TryRecv(out var message), "the full mailbox was empty: a timed-out put sent its message");
                taken.Add(message);
            },
            take: e => e.IsSent ? sent++ : -1000);

        Assert.True(outbox.TryRecv(out var last));
        taken.Add(last);
        Assert.Equal(Enumerable.Range(0, TimeoutRounds), log.Where(v => v >= 0));
        Assert.Equal(new[] { Filler }.Concat(Enumerable.Range(0, TimeoutRounds)), taken);
        Assert.False(outbox.TryRecv(out _), "a timed-out put sent its message");
    }

    [Theory]
    [InlineData(Arrival.JustBefore)]
    [InlineData(Arrival.AtTheDeadline)]
    [InlineData(Arrival.JustAfter)]
    [InlineData(Arrival.Racing)]
    public void Timeout_CreditAcquire_ATimedOutAcquireTakesNoCredit(Arrival arrival)
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var window = new CreditWindow(1, "timed credits");
        Assert.True(window.TryAcquire());
        var acquired = 0;
        var timed = window.Acquire().WithTimeout(TimedWait);
        var log = RunDeadlineRounds(scheduler, clock, arrival, timed, prepare: null, arrive: _ => window.Release(), take: _ => acquired++);

        Assert.Equal(Enumerable.Range(0, TimeoutRounds), log.Where(v => v >= 0));
        Assert.Equal(0, window.Available);
    }

    [Fact]
    public void Timeout_PutMadeByPut_MeansTheSameWithRoomAsWithout()
    {
        // Put(m) sends at the call when there is room, and returns a waiting put when there is none; with a timeout,
        // both are the same wait: with room it completes at once, not timed out; without, a timeout sends nothing.
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var outbox = new Mailbox<int>(1, "outbox") { OutlivesReceiver = true };
        var outcomes = new List<string>();
        TimedEvent<Event>? waiting = null;
        var sender = scheduler.Spawn(Send(), "sender");
        WaitUntil(() => Volatile.Read(ref waiting) is { } t && Probe.ParkedWait(t) != 0 && Probe.TimersSettled(scheduler, 1), "the second put parks on its deadline");
        clock.Advance(TimedWait);
        Join(sender);

        Assert.Equal(["1: not timed out", "2: timed out"], outcomes);
        Assert.Equal(1, outbox.Count);
        Assert.Equal([1], Drain(outbox));

        IEnumerable<Event> Send()
        {
            var withRoom = outbox.Put(1).WithTimeout(TimedWait);
            yield return withRoom;
            outcomes.Add(withRoom.TimedOut ? "1: timed out" : "1: not timed out");

            var full = outbox.Put(2).WithTimeout(TimedWait);
            Volatile.Write(ref waiting, full);
            yield return full;
            outcomes.Add(full.TimedOut ? "2: timed out" : "2: not timed out");
        }
    }

    [Fact]
    public void Timeout_PutMadeByPut_IsStillRefusedAsABranchAmongOthers()
    {
        var outbox = new Mailbox<int>(1, "outbox") { OutlivesReceiver = true };
        var inbox = new Mailbox<int>("inbox");
        Run(Body());
        Assert.Equal([2], Drain(outbox));

        IEnumerable<Event> Body()
        {
            var sent = outbox.Put(1);
            var withRoom = Assert.Throws<ArgumentException>(() => new Choice(sent, inbox.Recv()));
            Assert.Contains("sent its message at once", withRoom.Message, StringComparison.Ordinal);
            yield return sent;
            var waiting = outbox.Put(2);
            var full = Assert.Throws<ArgumentException>(() => new Choice(waiting, inbox.Recv()));
            Assert.Contains("CreatePutEvent", full.Message, StringComparison.Ordinal);
            Assert.True(outbox.TryRecv(out var one));
            Assert.Equal(1, one);
            yield return waiting;
        }
    }

    /// <summary>Takes every message queued in <paramref name="mailbox"/>, from a green thread, as its receiver must.</summary>
    private List<int> Drain(Mailbox<int> mailbox)
    {
        var taken = new List<int>();
        Run(Take());
        return taken;

        IEnumerable<Event> Take()
        {
            while (mailbox.TryRecv(out var message))
            {
                taken.Add(message);
            }

            yield break;
        }
    }

    [Fact]
    public void Timeout_Join_TimesOutWhileTheThreadRuns_ThenSeesItsEnd()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var release = new Mailbox<int>("release");
        var worker = scheduler.Spawn(WaitForRelease(), "joined");
        var timedOut = -1;
        TimedEvent<Event>? timed = null;
        var joiner = scheduler.Spawn(TimedJoin());
        WaitUntil(() => Volatile.Read(ref timed) is { } t && Probe.ParkedWait(t) != 0 && Probe.TimersSettled(scheduler, 1), "the joiner parks on its timed join");
        clock.Advance(TimedWait);
        WaitUntil(() => Volatile.Read(ref timedOut) == 1, "the join times out");
        Assert.False(worker.IsCompleted);
        release.Send(1);
        Join(joiner);
        Assert.Equal(2, Volatile.Read(ref timedOut));

        IEnumerable<Event> WaitForRelease()
        {
            yield return release.Recv();
        }

        IEnumerable<Event> TimedJoin()
        {
            var join = worker.Ended.WithTimeout(TimedWait);
            Volatile.Write(ref timed, join);
            yield return join;
            Volatile.Write(ref timedOut, join.TimedOut ? 1 : 0);
            yield return join;
            Volatile.Write(ref timedOut, join.TimedOut ? 0 : 2);
        }
    }

    [Fact]
    public void Timeout_Task_TimesOut_TheTaskLingers_AndCompletesALaterWait()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var source = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var results = new ConcurrentQueue<string>();
        TimedEvent<TaskEvent<int>>? timed = null;
        var waiter = scheduler.Spawn(Wait());
        WaitUntil(() => Volatile.Read(ref timed) is { } t && Probe.ParkedWait(t) != 0 && Probe.TimersSettled(scheduler, 1), "the thread parks on its timed task");
        clock.Advance(TimedWait);
        WaitUntil(() => results.Count == 1, "the task wait times out");
        source.SetResult(42);
        Join(waiter);
        Assert.Equal(["timed out", "42"], results);

        IEnumerable<Event> Wait()
        {
            var wait = new TaskEvent<int>().For(source.Task).WithTimeout(TimedWait);
            Volatile.Write(ref timed, wait);
            yield return wait;
            results.Enqueue(wait.TimedOut ? "timed out" : "completed");
            yield return wait;
            results.Enqueue(wait.TimedOut ? "timed out again" : wait.Inner.Result.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }
    }

    [Fact]
    public void Timeout_Zero_IsAPoll_AMessageThereWins_AndAnEmptyMailboxTimesOutWithoutTime()
    {
        var inbox = new Mailbox<int>("polled");
        var results = new ConcurrentQueue<string>();
        Run(Poll());
        Assert.Equal(["timed out", "7"], results);

        IEnumerable<Event> Poll()
        {
            var poll = inbox.Recv().WithTimeout(TimeSpan.Zero);
            yield return poll;
            results.Enqueue(poll.TimedOut ? "timed out" : "received");
            inbox.Send(7);
            yield return poll;
            results.Enqueue(poll.TimedOut ? "timed out again" : poll.Inner.Value.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }
    }

    [Fact]
    public void Timeout_Infinite_NeverTimesOut_AndSchedulesNoTimer()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("untimed");
        var timed = inbox.Recv().WithTimeout(System.Threading.Timeout.InfiniteTimeSpan);
        var received = -1;
        var thread = scheduler.Spawn(Receive());
        WaitUntil(() => Probe.ParkedWait(timed) != 0, "the receiver parks");
        Assert.Equal(0, Probe.PendingTimers(scheduler));
        clock.Advance(Event.MaxSleep);
        inbox.Send(5);
        Join(thread);
        Assert.Equal(5, received);

        IEnumerable<Event> Receive()
        {
            yield return timed;
            Assert.False(timed.TimedOut);
            received = timed.Inner.Value;
        }
    }

    [Fact]
    public void Timeout_SleepAsAChoiceBranch_LosesToAMessageAlreadyThere_EvenPastItsDeadline()
    {
        var inbox = new Mailbox<int>("ready");
        inbox.Send(1);
        var chosen = -1;
        Run(Choose());
        Assert.Equal(0, chosen);

        IEnumerable<Event> Choose()
        {
            var choice = new Choice(Event.Sleep(TimeSpan.Zero), inbox.Recv());
            yield return choice;
            chosen = choice.Index == 1 ? 0 : 1;
        }
    }

    [Fact]
    public void Timeout_StopWhileParkedOnATimedReceive_WithdrawsIt_FinallyOnce_MessageStays_AndNoTimeoutFires()
    {
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var inbox = new Mailbox<int>("timed, then stopped") { OutlivesReceiver = true };
        var timed = inbox.Recv().WithTimeout(TimedWait);
        var finallies = 0;
        var resumed = 0;
        var thread = scheduler.Spawn(Receive(), "stopped receiver");
        WaitUntil(() => Probe.ParkedWithDeadline(scheduler, timed), "the receiver parks on its timed receive");
        Assert.True(thread.Stop("test"));
        WaitUntil(() => thread.IsCompleted, "the stopped thread ends");
        Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        inbox.Send(9);
        clock.Advance(TimedWait * 2);
        Assert.Equal(1, Volatile.Read(ref finallies));
        Assert.Equal(0, Volatile.Read(ref resumed));
        Assert.Equal(1, inbox.Count);

        IEnumerable<Event> Receive()
        {
            try
            {
                yield return timed;
                Interlocked.Increment(ref resumed);
            }
            finally
            {
                Interlocked.Increment(ref finallies);
            }
        }
    }

    [Fact]
    public void Timeout_MailboxReceive_OnTheSystemClock_DeadlinesRacingSendsAndStops_EveryMessageOnce_InOrder()
    {
        // Real time: a 1 ms timeout on every receive, a sender on an OS thread that pauses now and then (so deadlines
        // fire while messages arrive), and, in the second half, receivers stopped while they wait. Each message goes
        // to exactly one receiver, in order; a stopped receiver's next message goes to its successor.
        const int Messages = 3_000;
        var inbox = new Mailbox<int>("racing deadlines") { OutlivesReceiver = true };
        var received = new List<int>();
        var timeouts = 0;
        GreenThread? current = null;
        var sender = new Thread(() =>
        {
            var random = new Random(7);
            for (var i = 0; i < Messages; i++)
            {
                inbox.Send(i);
                if (random.Next(50) == 0)
                {
                    // A pause about as long as a timeout with its clock's tick, so that deadlines and sends race.
                    Thread.Sleep(random.Next(1, 8));
                }

                if (i >= Messages / 2 && random.Next(200) == 0)
                {
                    Volatile.Read(ref current)?.Stop("test");
                }
            }

            inbox.Complete();
        });

        sender.Start();
        for (var receivers = 1; ; receivers++)
        {
            var thread = Scheduler.Spawn(Receive(), $"receiver {receivers}");
            Volatile.Write(ref current, thread);
            Waiting.Until(() => thread.IsCompleted, $"receiver {receivers} ends");
            if (thread.Outcome == ThreadOutcome.Completed)
            {
                break;
            }

            Assert.Equal(ThreadOutcome.Canceled, thread.Outcome);
        }

        Assert.True(sender.Join(Timeout));
        Assert.True(Enumerable.Range(0, Messages).SequenceEqual(received), $"{received.Count} of {Messages} messages received, out of order or twice ({timeouts} timeouts)");
        Assert.Equal(0, inbox.Count);

        IEnumerable<Event> Receive()
        {
            var timed = inbox.Recv().WithTimeout(TimeSpan.FromMilliseconds(1));
            while (true)
            {
                yield return timed;
                if (timed.TimedOut)
                {
                    timeouts++;
                    continue;
                }

                if (timed.Inner.IsCompleted)
                {
                    yield break;
                }

                received.Add(timed.Inner.Value);
            }
        }
    }

    [Fact]
    public void Timeout_Misuse_IsRefusedNamingTheEvent()
    {
        var inbox = new Mailbox<int>("misused");
        var choice = new Choice(inbox.Recv());
        var nested = Assert.Throws<ArgumentException>(() => choice.WithTimeout(TimedWait));
        Assert.Contains("Choice", nested.Message, StringComparison.Ordinal);
        var yielded = Assert.Throws<ArgumentException>(() => Event.Yield.WithTimeout(TimedWait));
        Assert.Contains("Event.Yield", yielded.Message, StringComparison.Ordinal);
        var negative = Assert.Throws<ArgumentOutOfRangeException>(() => inbox.Recv().WithTimeout(TimeSpan.FromTicks(-1)));
        Assert.Contains("misused", negative.Message, StringComparison.Ordinal);
        var tooLong = Assert.Throws<ArgumentOutOfRangeException>(() => inbox.Recv().WithTimeout(Event.MaxSleep + TimeSpan.FromTicks(1)));
        Assert.Contains("about 24.8 days", tooLong.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentNullException>(() => TimeoutExtensions.WithTimeout<Event>(null!, TimedWait));
        var timed = inbox.Recv().WithTimeout(TimedWait);
        var inChoice = Assert.Throws<ArgumentException>(() => new Choice(timed));
        Assert.Contains("WithTimeout", inChoice.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// Runs <see cref="TimeoutRounds"/> rounds of a timed wait on one green thread; in each, once the thread has parked,
    /// makes the wait completable (<paramref name="arrive"/>) at <paramref name="arrival"/> against its deadline. Returns
    /// what each wait gave, in order: -1 for a timeout, else <paramref name="take"/>'s value. Checks the count of
    /// timeouts each arrival allows.
    /// </summary>
    private static List<int> RunDeadlineRounds<TEvent>(
        Scheduler scheduler,
        FakeTimeProvider clock,
        Arrival arrival,
        TimedEvent<TEvent> timed,
        Action<int>? prepare,
        Action<int> arrive,
        Func<TEvent, int> take)
        where TEvent : Event
    {
        Assert.Equal(TimeSpan.TicksPerSecond, clock.TimestampFrequency);
        var log = new ConcurrentQueue<int>();
        var completed = 0;
        var thread = scheduler.Spawn(Body(), "timed waiter");
        long lastWait = 0;
        for (var round = 0; round < TimeoutRounds; round++)
        {
            Waiting.Until(() => Probe.ParkedWait(timed) > lastWait && Probe.TimersSettled(scheduler, 1), () => $"the waiter parks for round {round}");
            lastWait = Probe.ParkedWait(timed);
            var toDeadline = TimeSpan.FromTicks(Probe.Deadline(timed) - clock.GetTimestamp());
            Assert.True(toDeadline > TimeSpan.Zero, $"round {round}: the deadline is {toDeadline} away");
            switch (arrival)
            {
                case Arrival.JustBefore:
                    clock.Advance(toDeadline - TimeSpan.FromTicks(1));
                    Assert.Equal(lastWait, Probe.ParkedWait(timed));
                    arrive(round);
                    break;
                case Arrival.AtTheDeadline:
                case Arrival.JustAfter:
                    clock.Advance(arrival == Arrival.JustAfter ? toDeadline + TimeSpan.FromTicks(1) : toDeadline);
                    Waiting.Until(() => log.Count(v => v < 0) == round + 1, () => $"round {round} times out");
                    arrive(round);
                    break;
                default:
                    using (var start = new Barrier(2))
                    {
                        var advancing = Task.Run(() =>
                        {
                            start.SignalAndWait();
                            clock.Advance(toDeadline);
                        });
                        start.SignalAndWait();
                        arrive(round);
                        advancing.Wait(Timeout);
                    }

                    break;
            }

            Waiting.Until(() => Volatile.Read(ref completed) == round + 1, () => $"round {round} completes");
        }

        Join(thread);
        var timeouts = log.Count(v => v < 0);
        switch (arrival)
        {
            case Arrival.JustBefore:
                Assert.Equal(0, timeouts);
                break;
            case Arrival.AtTheDeadline:
            case Arrival.JustAfter:
                Assert.Equal(TimeoutRounds, timeouts);
                break;
            default:
                Assert.True(timeouts <= TimeoutRounds, string.Join(",", log));
                break;
        }

        return [.. log];

        IEnumerable<Event> Body()
        {
            for (var round = 0; round < TimeoutRounds;)
            {
                prepare?.Invoke(round);
                yield return timed;
                if (timed.TimedOut)
                {
                    log.Enqueue(-1);
                }
                else
                {
                    log.Enqueue(take(timed.Inner));
                    round++;
                    Volatile.Write(ref completed, round);
                }
            }
        }
    }
}
