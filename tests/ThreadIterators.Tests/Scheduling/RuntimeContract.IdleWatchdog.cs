using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The watchdog after idleness: the first turn after the scheduler idled may strand a thread in its worker's run-next
// slot, and only the watchdog can move it, so the watchdog must be looking by then. No elapsed time is asserted: the
// test reads how far the watchdog's next look is (Probe.WatchdogNextLookWithin) when that turn has stranded the thread.
public abstract partial class RuntimeContract
{
    [Fact]
    public void Wake_RightAfterTheSchedulerIdled_WakerThenBlocksItsWorker_WatchdogLooksWithinABusyTick()
    {
        var wakerInbox = new Mailbox<int>("waker");
        var inbox = new Mailbox<int>("woken");
        var ran = new ManualResetEventSlim(false);
        var received = 0;
        var nextLook = TimeSpan.MinValue;
        var receiver = Scheduler.Spawn(Receive(), "receiver");
        var waker = Scheduler.Spawn(Wake(), "waker");
        WaitUntil(() => inbox.IsReceiverParked && wakerInbox.IsReceiverParked, "both threads are parked");

        // Idle until the watchdog has taken the idleness in: every worker parked, and the watchdog no longer ticking
        // busy. (It used to slow down tick by tick, to 100 ms, before it went to sleep; now it goes to sleep.)
        Waiting.Until(
            () => Scheduler.Idle.AllListed && SlowerThanBusy(Probe.WatchdogNextLookWithin(Scheduler)),
            () => $"every worker is parked and the watchdog no longer ticks busy (its next look within {Probe.WatchdogNextLookWithin(Scheduler)})");

        // From outside: this wakes a parked worker, which runs the waker.
        wakerInbox.Send(1);
        Join(waker);
        Join(receiver);
        Assert.True(ran.IsSet);
        Assert.Equal(2, received);

        // The waker's turn had just left the receiver in its worker's run-next slot: by then the watchdog must be due
        // to look within a busy tick, or that thread waits out whatever slower tick the watchdog was in.
        Assert.True(
            nextLook >= TimeSpan.Zero && nextLook <= Watchdog.BusyTick,
            $"the first turn after idleness stranded a thread while the watchdog's next look was within {nextLook} (a busy tick is {Watchdog.BusyTick})");

        static bool SlowerThanBusy(TimeSpan within) => within == System.Threading.Timeout.InfiniteTimeSpan || within > Watchdog.BusyTick;

        IEnumerable<Event> Wake()
        {
            var message = wakerInbox.Recv();
            yield return message;
            Interlocked.Add(ref received, message.Value);
            inbox.Send(1);
            nextLook = Probe.WatchdogNextLookWithin(Scheduler);
            if (WokenThreadCanMove)
            {
                // Hold this worker until the receiver has run, which only the watchdog's rescue brings about where the
                // wake-up put it in this worker's run-next slot.
#pragma warning disable TI0001 // A turn that blocks its worker is what the watchdog must rescue from.
                Assert.True(ran.Wait(Timeout), "the woken receiver never ran while its waker blocked its worker");
#pragma warning restore TI0001
            }
        }

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            yield return message;
            Interlocked.Add(ref received, message.Value);
            ran.Set();
        }
    }
}
