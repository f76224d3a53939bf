using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;
using ThreadIterators.Supervision;

namespace ThreadIterators.Tests;

/// <summary>
/// The <c>ThreadIterators</c> meter under every configuration, read through a <see cref="System.Diagnostics.Metrics.MeterListener"/>
/// as a tool would: after a known workload every count is exact, work done outside any worker is counted apart, and a
/// disposed scheduler is no longer measured.
/// </summary>
public abstract partial class RuntimeContract
{
    private const string Spawned = "threaditerators.threads.spawned";
    private const string Ended = "threaditerators.threads.ended";
    private const string Live = "threaditerators.threads.live";
    private const string Sent = "threaditerators.messages.sent";
    private const string Waits = "threaditerators.mailbox.waits";
    private const string WakeUps = "threaditerators.mailbox.wakeups";
    private const string Steals = "threaditerators.worker.steals";
    private const string Parks = "threaditerators.worker.parks";
    private const string Restarts = "threaditerators.supervisor.restarts";
    private const string GiveUps = "threaditerators.supervisor.give_ups";
    private const string DeadLetters = "threaditerators.dead_letters";
    private const string WatchdogReports = "threaditerators.watchdog.reports";

    [Fact]
    public void Metrics_AfterAKnownWorkload_CountThreadsByOutcome_EveryMessage_AndAWakeUpForEveryWait()
    {
        using var meter = new MeterReading();
        const int senders = 4;
        const int each = 250;
        var inbox = new Mailbox<int>("inbox");
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "known" });
        try
        {
            var collector = scheduler.Spawn(Collect(), "collector");

            // The collector's first receive finds the inbox empty: exactly one wait, and nothing has woken it yet.
            WaitUntil(() => meter.Read(Waits, scheduler) == 1, "the collector's park on its empty inbox is counted");
            Assert.Equal(0, meter.Read(WakeUps, scheduler));
            Assert.Equal(1, meter.Read(Live, scheduler));

            scheduler.Spawn(StartSenders(), "starter");
            var failing = scheduler.Spawn(Fail(), "failing");
            var sleeper = scheduler.Spawn(Sleep(), "sleeper");
            Assert.Throws<InvalidOperationException>(() => failing.Wait(Timeout));
            sleeper.Stop();
            Join(collector);
            Assert.True(scheduler.WaitForAll(Timeout), "the workload did not end");

            // Collector, starter, its four senders, the failing thread and the sleeper; the four senders were spawned
            // on a worker, the rest from this OS thread.
            Assert.Equal(8, meter.Read(Spawned, scheduler));
            Assert.Equal(6, meter.Read(Ended, scheduler, "outcome=completed"));
            Assert.Equal(1, meter.Read(Ended, scheduler, "outcome=faulted"));
            Assert.Equal(1, meter.Read(Ended, scheduler, "outcome=canceled"));
            Assert.Equal(0, meter.Read(Live, scheduler));
            Assert.Equal(senders * each, meter.Read(Sent, scheduler));

            // Every park of the collector was ended by a send's wake-up; a wait is counted just after its park, which
            // may be after the woken thread has run, so the two meet a moment later.
            WaitUntil(() => meter.Read(Waits, scheduler) == meter.Read(WakeUps, scheduler), "as many wake-ups as waits");
            Assert.InRange(meter.Read(WakeUps, scheduler), 1, senders * each);

            WaitUntil(() => meter.Read(Parks, scheduler) >= 1, "an idle worker parks, and the park is counted");
            if (WorkerCount == 1 || Policy is SchedulingPolicy.Dedicated or SchedulingPolicy.SharedQueue)
            {
                Assert.Equal(0, meter.Read(Steals, scheduler));
            }

            Assert.Equal(0, meter.Read(Restarts, scheduler));
            Assert.Equal(0, meter.Read(GiveUps, scheduler));
            Assert.Equal(0, meter.Read(WatchdogReports, scheduler));
            foreach (var reason in Enum.GetValues<DeadLetterReason>())
            {
                Assert.Equal(0, meter.Read(DeadLetters, scheduler, $"reason={reason}"));
            }
        }
        finally
        {
            scheduler.Dispose();
        }

        Assert.False(meter.Measures(scheduler), "a disposed scheduler is still measured");

        IEnumerable<Event> Collect()
        {
            var next = inbox.Recv();
            for (var i = 0; i < senders * each; i++)
            {
                yield return next;
            }
        }

        IEnumerable<Event> StartSenders()
        {
            var started = new GreenThread[senders];
            for (var s = 0; s < senders; s++)
            {
                started[s] = GreenThread.Current!.Scheduler.Spawn(Send(s), $"sender {s}");
            }

            foreach (var sender in started)
            {
                yield return sender.Exited;
            }
        }

        IEnumerable<Event> Send(int sender)
        {
            for (var i = 0; i < each; i++)
            {
                inbox.Send((sender * each) + i);
                if (i % 50 == 0)
                {
                    yield return Event.Yield;
                }
            }
        }

        IEnumerable<Event> Fail()
        {
            yield return Event.Yield;
            throw new InvalidOperationException("a counted fault");
        }

        IEnumerable<Event> Sleep()
        {
            yield return Event.Sleep(Event.MaxSleep);
        }
    }

    [Fact]
    public void Metrics_DeadLetters_AreCountedByReason()
    {
        using var meter = new MeterReading();
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "letters" });
        try
        {
            var inbox = new Mailbox<string>("inbox");
            var gate = new Mailbox<bool>("gate");
            var receiver = scheduler.Spawn(ReceiveOne(), "receiver");
            scheduler.Spawn(SendAround(receiver), "sender");
            Assert.True(scheduler.WaitForAll(Timeout), "the workload did not end");

            Assert.Equal(3, meter.Read(DeadLetters, scheduler, $"reason={DeadLetterReason.QueuedWhenReceiverEnded}"));
            Assert.Equal(2, meter.Read(DeadLetters, scheduler, $"reason={DeadLetterReason.SentAfterReceiverEnded}"));
            Assert.Equal(0, meter.Read(DeadLetters, scheduler, $"reason={DeadLetterReason.RefusedByTarget}"));
            Assert.Equal(0, meter.Read(DeadLetters, scheduler, $"reason={DeadLetterReason.LateReply}"));
            Assert.Equal(5, scheduler.DeadLetterCount);

            // Four before the end, the gate's one, and two after: a message a mailbox takes is sent, even if it then
            // goes to the dead letters; the one a completed mailbox refused is not.
            Assert.Equal(7, meter.Read(Sent, scheduler));

            IEnumerable<Event> ReceiveOne()
            {
                // Binds to the inbox only once all four are in, so three are still queued when it ends.
                yield return gate.Recv();
                yield return inbox.Recv();
            }

            IEnumerable<Event> SendAround(GreenThread ending)
            {
                for (var i = 0; i < 4; i++)
                {
                    inbox.Send($"before {i}");
                }

                gate.Send(true);
                yield return ending.Exited;
                inbox.Send("after 1");
                inbox.Send("after 2");

                // A refused send is no message sent.
                var closed = new Mailbox<string>("closed");
                closed.Complete();
                Assert.False(closed.TrySend("refused"));
            }
        }
        finally
        {
            scheduler.Dispose();
        }
    }

    [Fact]
    public void Metrics_SupervisorRestartsAndGiveUps_AreCounted()
    {
        using var meter = new MeterReading();
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "supervised" });
        try
        {
            var pupils = new Pupils();
            var supervisor = pupils.Supervise(new SupervisorOptions { Name = "twice", MaxRestarts = 2, Period = TimeSpan.FromHours(1) }, pupils.Spec("a"));
            var thread = supervisor.Start(scheduler);
            for (var crash = 1; crash <= 2; crash++)
            {
                WaitUntil(() => pupils.Waiting("a"), $"child a runs before crash {crash}");
                pupils.Crash("a");
                var restarts = crash;
                WaitUntil(() => pupils.Restarts == restarts, $"crash {crash} is restarted");
                Assert.Equal(crash, meter.Read(Restarts, scheduler));
                Assert.Equal(0, meter.Read(GiveUps, scheduler));
            }

            WaitUntil(() => pupils.Waiting("a"), "child a runs before its third crash");
            pupils.Crash("a");
            Assert.Throws<SupervisorGaveUpException>(() => thread.Wait(Timeout));

            Assert.Equal(2, meter.Read(Restarts, scheduler));
            Assert.Equal(supervisor.RestartCount, meter.Read(Restarts, scheduler));
            Assert.Equal(1, meter.Read(GiveUps, scheduler));

            // The supervisor's own end, faulted, and the child's three crashes.
            Assert.True(scheduler.WaitForAll(Timeout), "the supervision did not end");
            Assert.Equal(4, meter.Read(Ended, scheduler, "outcome=faulted"));
            Assert.Equal(4, meter.Read(Spawned, scheduler));
        }
        finally
        {
            scheduler.Dispose();
        }
    }

    [Fact]
    public void Metrics_WatchdogReports_CountEachLongTurnReported()
    {
        using var meter = new MeterReading();
        using var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "watched", LongTurnThreshold = TimeSpan.FromMilliseconds(20) });
        using var reported = new ManualResetEventSlim();
        var reports = 0;
        scheduler.LongTurn += (_, _) =>
        {
            Interlocked.Increment(ref reports);
            reported.Set();
        };

        var blocker = scheduler.Spawn(Block(), "blocker");
        Assert.True(blocker.Wait(Timeout), "the blocking thread did not end");
        Assert.Equal(1, Volatile.Read(ref reports));
        Assert.Equal(1, meter.Read(WatchdogReports, scheduler));

        IEnumerable<Event> Block()
        {
#pragma warning disable TI0001 // A turn that blocks its worker is what the watchdog reports.
            Assert.True(reported.Wait(Timeout), "the watchdog never reported a turn that blocked its worker");
#pragma warning restore TI0001
            yield break;
        }
    }

    [Fact]
    public void Metrics_SharedMailbox_CountsSendsWaitsAndWakeUps()
    {
        using var meter = new MeterReading();
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "shared" });
        try
        {
            var work = new SharedMailbox<int>("work");
            scheduler.Spawn(TakeOne(), "taker 1");
            scheduler.Spawn(TakeOne(), "taker 2");
            WaitUntil(() => meter.Read(Waits, scheduler) == 2, "both takers park on the empty shared mailbox");
            scheduler.Spawn(SendTwo(), "sender");
            Assert.True(scheduler.WaitForAll(Timeout), "the workload did not end");

            Assert.Equal(2, meter.Read(Sent, scheduler));
            Assert.Equal(2, meter.Read(WakeUps, scheduler));
            Assert.Equal(2, meter.Read(Waits, scheduler));

            IEnumerable<Event> TakeOne()
            {
                yield return work.CreateReceiveEvent();
            }

            IEnumerable<Event> SendTwo()
            {
                work.Send(1);
                work.Send(2);
                yield break;
            }
        }
        finally
        {
            scheduler.Dispose();
        }
    }

    [Fact]
    public void Metrics_SendsFromOutsideAnyWorker_AreCountedApart_NotOnTheReceiversScheduler()
    {
        using var meter = new MeterReading();
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy, Name = "outside" });
        try
        {
            const int messages = 100;
            var inbox = new Mailbox<int>("inbox");
            // This OS thread's own count, which no other thread writes: the sum over every outside thread may fall
            // meanwhile, as other tests' sends are counted as they start and taken back if refused.
            var before = Probe.SentFromThisThread();
            var receiver = scheduler.Spawn(Receive(), "receiver");
            for (var i = 0; i < messages; i++)
            {
                inbox.Send(i);
            }

            Join(receiver);

            // Exactly these on this thread; and the meter's outside total, a sum of counts that never go below zero and
            // a total it never reports lower than before, holds at least this thread's.
            var after = Probe.SentFromThisThread();
            Assert.Equal(before + messages, after);
            Assert.True(meter.ReadOutside(Sent) >= after, "the sends of a plain OS thread were not counted outside");
            Assert.Equal(0, meter.Read(Sent, scheduler));

            IEnumerable<Event> Receive()
            {
                var next = inbox.Recv();
                for (var i = 0; i < messages; i++)
                {
                    yield return next;
                }
            }
        }
        finally
        {
            scheduler.Dispose();
        }
    }

    [Fact]
    public void Metrics_TheMeterPublishesEveryInstrument()
    {
        using var meter = new MeterReading();
        Assert.True(meter.Measures(Scheduler), "a live scheduler is not measured");
        Assert.Equal(
            new[] { DeadLetters, Live, Spawned, Ended, Sent, Waits, WakeUps, Steals, Parks, Restarts, GiveUps, WatchdogReports }.Order(StringComparer.Ordinal),
            meter.Instruments.Order(StringComparer.Ordinal));
    }
}
