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
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

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
            var spinner = default(SpinWait);
            var deadline = DateTime.UtcNow + Timeout;
            while (Volatile.Read(ref parks) < 2)
            {
                Assert.True(DateTime.UtcNow < deadline, "the woken receiver did not run on another worker");
                spinner.SpinOnce();
            }

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
                var deadline = DateTime.UtcNow + Timeout;
                var spinner = default(SpinWait);
                while (!inbox.IsReceiverParked)
                {
                    Assert.True(DateTime.UtcNow < deadline, "the receiver did not drain the full segment and park");
                    spinner.SpinOnce();
                }
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
}
