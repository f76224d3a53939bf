using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Forces the interleaving behind the worst bug the runtime had: a receiver's park succeeds, a sender wakes it at
/// once, and another worker runs it and takes the message while the parking worker is still deciding what its park
/// exchange meant. The parking worker must treat the park as done and never run the thread itself.
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class ParkRaceTests
{
    private static readonly TimeSpan Timeout = Waiting.Timeout;

    [Theory]
    [InlineData(2)]
    [InlineData(4)]
    public void Park_WokenAndRunElsewhereBeforeTheParkingWorkerLooksAgain_ThreadRunsOnceAndGetsEveryMessage(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<int>("raced");
        var received = new ConcurrentQueue<int>();
        using var firstParkHeld = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var parks = 0;
        TestHooks.AfterParkExchange = mailbox =>
        {
            // Hold the worker of the first park only, until the thread has been woken and has parked again elsewhere.
            if (mailbox == inbox && Interlocked.Increment(ref parks) == 1)
            {
                firstParkHeld.Set();
                release.Wait(Timeout);
            }
        };

        try
        {
            var receiver = scheduler.Spawn(Receive(), "receiver");
            Assert.True(firstParkHeld.Wait(Timeout), "the receiver never parked");
            inbox.Send(1);
            Waiting.Until(() => Volatile.Read(ref parks) >= 2, "the woken receiver runs on another worker and parks again");

            release.Set();
            inbox.Send(2);
            inbox.Send(3);
            Assert.True(receiver.Wait(Timeout), "the receiver did not finish");
            Assert.Equal([1, 2, 3], received);
        }
        finally
        {
            TestHooks.AfterParkExchange = null;
            release.Set();
        }

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            for (var i = 0; i < 3; i++)
            {
                yield return message;
                received.Enqueue(message.Value);
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Grow_ReceiverParksOnTheFullSegmentBeforeItIsFrozen_TheGrowingSenderWakesIt(int workers)
    {
        const int total = 1_000;
        using var scheduler = new Scheduler(workers);
        var gate = new Mailbox<int>("gate");
        var inbox = new Mailbox<int>("growing");
        var received = new List<int>();
        var held = 0;
        TestHooks.BeforeGrow = mailbox =>
        {
            // The first growth only: let the receiver drain the full first segment and park on it before the
            // sender freezes it. A sender that froze it without waking the receiver would strand every message.
            if (mailbox == inbox && Interlocked.Increment(ref held) == 1)
            {
                gate.Send(0);
                Waiting.Until(() => inbox.IsReceiverParked, "the receiver drains the full segment and parks");
            }
        };

        try
        {
            var receiver = scheduler.Spawn(Receive(), "receiver");

            // The receiver waits at the gate while the first sends fill the first segment; the send that finds it
            // full opens the gate from the hook.
            for (var i = 0; i < total; i++)
            {
                inbox.Send(i);
            }

            Assert.True(receiver.Wait(Timeout), $"the receiver got {Volatile.Read(ref held)} growth(s) and did not finish");
            Assert.True(held >= 1, "no segment ever grew");
            Assert.Equal(Enumerable.Range(0, total), received);
        }
        finally
        {
            TestHooks.BeforeGrow = null;
        }

        IEnumerable<Event> Receive()
        {
            yield return gate.Recv();
            var message = inbox.Recv();
            for (var i = 0; i < total; i++)
            {
                yield return message;
                received.Add(message.Value);
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Grow_FrozenSegmentDrainedIntoThePoolBeforeTheGrowingSenderReturns_ASendMeanwhileReachesTheReceiver(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var gate = new Mailbox<int>("gate");
        var inbox = new Mailbox<Numbered>("growing");
        var received = new ConcurrentQueue<int>();
        using var growerHolds = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var held = 0;
        TestHooks.AfterFreeze = mailbox =>
        {
            // The first growth only: hold the growing sender while the receiver drains the frozen segment into the
            // pool and another send comes in. Were the frozen segment still the tail, that send would land in the pool.
            if (mailbox == inbox && Interlocked.Increment(ref held) == 1)
            {
                growerHolds.Set();
                release.Wait(Timeout);
            }
        };

        try
        {
            // The receiver waits at the gate while four sends fill the first segment; a fifth sender finds it full,
            // grows the mailbox and stops right after freezing the full segment.
            var receiver = scheduler.Spawn(Receive(), "receiver");
            for (var i = 0; i < 4; i++)
            {
                inbox.Send(new Numbered(i));
            }

            var first = Probe.TailSegment(inbox)!;
            var grower = new Thread(() => inbox.Send(new Numbered(4))) { IsBackground = true };
            grower.Start();
            Assert.True(growerHolds.Wait(Timeout), "the fifth send never grew the mailbox");

            // The receiver drains the frozen segment and gives it to the pool, where it starts a new life.
            var life = Volatile.Read(ref first.TailWord) >>> MailboxSegment<Numbered>.LifeShift;
            gate.Send(0);
            Waiting.Until(
                () => Volatile.Read(ref first.TailWord) >>> MailboxSegment<Numbered>.LifeShift != life,
                "the receiver drains the first segment into the pool");

            // A send made now must go to the mailbox, not to the pooled segment.
            inbox.Send(new Numbered(5));
            Assert.True(
                MailboxSegment<Numbered>.PositionOf(Volatile.Read(ref first.TailWord)) == 0,
                "the send went to the segment in the pool");
            release.Set();
            Assert.True(grower.Join(Timeout), "the growing sender did not finish");
            Assert.True(receiver.Wait(Timeout), $"the receiver got {string.Join(", ", received)} and never the rest");
            Assert.Equal([0, 1, 2, 3, 5, 4], received);
        }
        finally
        {
            TestHooks.AfterFreeze = null;
            release.Set();
        }

        IEnumerable<Event> Receive()
        {
            yield return gate.Recv();
            var message = inbox.Recv();
            for (var i = 0; i < 6; i++)
            {
                yield return message;
                received.Enqueue(message.Value.Value);
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Send_TailSegmentPooledAndReusedByAnotherMailboxWhileSenderHoldsIt_MessageStaysInItsMailbox(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var gate = new Mailbox<int>("gate");
        var first = new Mailbox<Tagged>("first");
        var second = new Mailbox<Tagged>("second");
        var receivedFirst = new ConcurrentQueue<int>();
        var receivedSecond = new ConcurrentQueue<int>();
        using var senderHolds = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var armed = 0;
        TestHooks.AfterTailRead = mailbox =>
        {
            if (mailbox == first && Interlocked.Exchange(ref armed, 0) == 1)
            {
                senderHolds.Set();
                release.Wait(Timeout);
            }
        };

        try
        {
            // The first mailbox's first segment gets a message, and a late sender reads it as the tail and stops.
            first.Send(new Tagged(0));
            var segment = Probe.TailSegment(first);
            Volatile.Write(ref armed, 1);
            var late = new Thread(() => first.Send(new Tagged(1000))) { IsBackground = true };
            late.Start();
            Assert.True(senderHolds.Wait(Timeout), "the late sender never read the tail");

            // Fill and outgrow that segment, let the receiver drain it into the pool (stopping while the next segment
            // still holds messages, so that one is not given back), and give it to the second mailbox.
            for (var i = 1; i <= 6; i++)
            {
                first.Send(new Tagged(i));
            }

            var receiverA = scheduler.Spawn(ReceiveFirst(), "first receiver");
            var receiverB = scheduler.Spawn(ReceiveSecond(), "second receiver");
            gate.Send(0);
            Waiting.Until(() => receivedFirst.Count == 5, "the first receiver took the first five messages");
            second.Send(new Tagged(100));
            Assert.Same(segment, Probe.TailSegment(second));

            release.Set();
            Assert.True(late.Join(Timeout), "the late sender did not finish");
            second.Send(new Tagged(101));
            gate.Send(0);
            Assert.True(receiverA.Wait(Timeout), "the first receiver never got the late message");
            Assert.True(receiverB.Wait(Timeout), "the second receiver did not finish");
            Assert.Equal([0, 1, 2, 3, 4, 5, 6, 1000], receivedFirst);
            Assert.Equal([100, 101], receivedSecond);
        }
        finally
        {
            TestHooks.AfterTailRead = null;
            release.Set();
        }

        IEnumerable<Event> ReceiveFirst()
        {
            var message = first.Recv();
            foreach (var count in (int[])[5, 3])
            {
                yield return gate.Recv();
                for (var i = 0; i < count; i++)
                {
                    yield return message;
                    receivedFirst.Enqueue(message.Value.Value);
                }
            }
        }

        IEnumerable<Event> ReceiveSecond()
        {
            var message = second.Recv();
            for (var i = 0; i < 2; i++)
            {
                yield return message;
                receivedSecond.Enqueue(message.Value.Value);
            }
        }
    }

    [Fact]
    public void Abandon_WhileASenderThatTookTheParkMarkIsAboutToWake_TheThreadTakingOverIsNotWokenByIt()
    {
        var inbox = new Mailbox<int>("handed over") { OutlivesReceiver = true };
        var first = new Scheduler(1);
        using var senderHolds = new ManualResetEventSlim();
        using var releaseSender = new ManualResetEventSlim();
        using var abandonWaits = new ManualResetEventSlim();
        var armed = 0;
        TestHooks.BeforeWakeRead = mailbox =>
        {
            if (mailbox == inbox && Interlocked.Exchange(ref armed, 0) == 1)
            {
                senderHolds.Set();
                releaseSender.Wait(Timeout);
            }
        };
        TestHooks.AbandonWaitsForWake = mailbox =>
        {
            if (mailbox == inbox)
            {
                abandonWaits.Set();
            }
        };

        try
        {
            // The first receiver parks; a sender takes its mark and stops before it reads whom to wake.
            first.Spawn(ReceiveOne(), "abandoned");
            Waiting.Until(() => inbox.IsReceiverParked, "the first receiver parks");
            Volatile.Write(ref armed, 1);
            var sender = new Thread(() => inbox.Send(1)) { IsBackground = true };
            sender.Start();
            Assert.True(senderHolds.Wait(Timeout), "the sender never took the mark");

            // Disposal must not finish while that wake-up is on its way: it waits for the sender.
            var disposal = new Thread(first.Dispose) { IsBackground = true };
            disposal.Start();
            Waiting.Until(() => abandonWaits.IsSet || !disposal.IsAlive, "disposal either waits for the sender or ends");
            if (!abandonWaits.IsSet)
            {
                // Disposal ended first: a thread of another scheduler takes the mailbox over, takes the message and
                // parks before the late sender wakes "the receiver".
                using var early = new Scheduler(1);
                var taker = early.Spawn(ReceiveTwo(), "taker");
                Waiting.Until(() => inbox.IsReceiverParked, "the taker parks");
                releaseSender.Set();
                Assert.True(sender.Join(Timeout), "the sender did not finish");
                inbox.Send(2);
                taker.Wait(Timeout);
                Assert.Fail("disposal finished while a sender that took the park mark had not yet read whom to wake");
            }

            releaseSender.Set();
            Assert.True(sender.Join(Timeout), "the sender did not finish");
            Assert.True(disposal.Join(Timeout), "disposal did not finish");

            using var second = new Scheduler(1);
            var received = new List<int>();
            var next = second.Spawn(Collect(received), "taker");
            inbox.Send(2);
            Assert.True(next.Wait(Timeout), "the thread taking over did not get both messages");
            Assert.Equal([1, 2], received);
        }
        finally
        {
            TestHooks.BeforeWakeRead = null;
            TestHooks.AbandonWaitsForWake = null;
            releaseSender.Set();
        }

        IEnumerable<Event> ReceiveOne()
        {
            yield return inbox.Recv();
        }

        IEnumerable<Event> ReceiveTwo()
        {
            var message = inbox.Recv();
            yield return message;
            yield return message;
        }

        IEnumerable<Event> Collect(List<int> into)
        {
            var message = inbox.Recv();
            for (var i = 0; i < 2; i++)
            {
                yield return message;
                into.Add(message.Value);
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Complete_WhileASenderHoldsTheTailItRead_TheSendIsRefused_AndTheReceiverGetsTheEarlierMessageThenTheEnd(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<int>("completed under a sender");
        using var senderHolds = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var armed = 0;
        TestHooks.AfterTailRead = mailbox =>
        {
            if (mailbox == inbox && Interlocked.Exchange(ref armed, 0) == 1)
            {
                senderHolds.Set();
                release.Wait(Timeout);
            }
        };

        try
        {
            inbox.Send(0);
            Volatile.Write(ref armed, 1);
            Exception? refusal = null;
            var late = new Thread(() => refusal = Record.Exception(() => inbox.Send(1))) { IsBackground = true };
            late.Start();
            Assert.True(senderHolds.Wait(Timeout), "the late sender never read the tail");

            // The segment the late sender holds is frozen behind the end; its append finds it no longer the tail,
            // reads the tail again, and finds the end.
            inbox.Complete();
            release.Set();
            Assert.True(late.Join(Timeout), "the late sender did not finish");
            Assert.IsType<System.Threading.Channels.ChannelClosedException>(refusal);

            var received = new List<int>();
            var receiver = scheduler.Spawn(ReceiveToTheEnd(inbox, received), "receiver");
            Assert.True(receiver.Wait(Timeout), "the receiver never got the end");
            Assert.Equal([0], received);
        }
        finally
        {
            TestHooks.AfterTailRead = null;
            release.Set();
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Complete_WhileAGrowingSenderOwesTheParkedReceiverItsWakeUp_TheSenderIsRefused_AndStillWakesIt(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var gate = new Mailbox<int>("gate");
        var inbox = new Mailbox<int>("grown, then completed");
        var received = new List<int>();
        using var senderHolds = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var grows = 0;
        var slowAppends = 0;
        TestHooks.BeforeGrow = mailbox =>
        {
            // The receiver drains the full first segment and parks on it, so the growth's freeze takes its park mark.
            if (mailbox == inbox && Interlocked.Increment(ref grows) == 1)
            {
                gate.Send(0);
                Waiting.Until(() => inbox.IsReceiverParked, "the receiver drains the full segment and parks");
            }
        };
        TestHooks.BeforeSlowAppend = mailbox =>
        {
            // The first try after the growth is the append into the grown segment, with the wake-up owed: complete
            // the mailbox there.
            if (mailbox == inbox && Volatile.Read(ref grows) > 0 && Interlocked.Increment(ref slowAppends) == 1)
            {
                senderHolds.Set();
                release.Wait(Timeout);
            }
        };

        try
        {
            var receiver = scheduler.Spawn(Receive(), "receiver");
            for (var i = 0; i < 4; i++)
            {
                inbox.Send(i);
            }

            Exception? refusal = null;
            var grower = new Thread(() => refusal = Record.Exception(() => inbox.Send(4))) { IsBackground = true };
            grower.Start();
            Assert.True(senderHolds.Wait(Timeout), "the fifth send never grew the mailbox");
            inbox.Complete();
            release.Set();
            Assert.True(grower.Join(Timeout), "the growing sender did not finish");
            Assert.IsType<System.Threading.Channels.ChannelClosedException>(refusal);

            // Refused, the growing sender still wakes the receiver, which finds the end after the four messages.
            Assert.True(receiver.Wait(Timeout), "the receiver was never woken");
            Assert.Equal([0, 1, 2, 3], received);
        }
        finally
        {
            TestHooks.BeforeGrow = null;
            TestHooks.BeforeSlowAppend = null;
            release.Set();
        }

        IEnumerable<Event> Receive()
        {
            yield return gate.Recv();
            foreach (var e in ReceiveToTheEnd(inbox, received))
            {
                yield return e;
            }
        }
    }

    [Theory]
    [InlineData(2)]
    [InlineData(4)]
    public void Complete_WakesAReceiverWhoseParkingWorkerIsStillHeld_TheThreadRunsOnceElsewhereAndGetsTheEnd(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<int>("completed while parking");
        using var parkHeld = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var parks = 0;
        TestHooks.AfterParkExchange = mailbox =>
        {
            if (mailbox == inbox && Interlocked.Increment(ref parks) == 1)
            {
                parkHeld.Set();
                release.Wait(Timeout);
            }
        };

        try
        {
            var received = new List<int>();
            var receiver = scheduler.Spawn(ReceiveToTheEnd(inbox, received), "receiver");
            Assert.True(parkHeld.Wait(Timeout), "the receiver never parked");

            // The completion takes the park mark and wakes the thread, which runs on another worker and ends there
            // while the worker that parked it still holds it.
            inbox.Complete();
            Assert.True(receiver.Wait(Timeout), "the woken receiver did not run elsewhere");
            release.Set();
            Assert.Empty(received);
            Assert.Equal(1, Volatile.Read(ref parks));
        }
        finally
        {
            TestHooks.AfterParkExchange = null;
            release.Set();
        }
    }

    /// <summary>Receives until the end of <paramref name="inbox"/>, adding each message to <paramref name="received"/>.</summary>
    private static IEnumerable<Event> ReceiveToTheEnd(Mailbox<int> inbox, List<int> received)
    {
        var message = inbox.Recv();
        yield return message;
        while (!message.IsCompleted)
        {
            received.Add(message.Value);
            yield return message;
        }
    }

    /// <summary>A message type no other test uses, so this test alone fills and drains its segment pool.</summary>
    private readonly record struct Tagged(int Value);

    /// <summary>A message type only the growth test uses, so its first segment comes from a pool no other test fills.</summary>
    private readonly record struct Numbered(int Value);
}
