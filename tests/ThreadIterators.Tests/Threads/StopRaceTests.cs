using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Forces the interleavings of a stop that timing alone almost never produces: a stop that read a receive as the
/// thread's wait takes a park mark that is no longer that receive's (the thread ended and another receiver took the
/// mailbox over, or the thread parked in a choice over the same mailbox). The mark must go back, or, if a message came
/// while the stop held it, its wake-up must be given; nobody may be left parked beside a message.
/// </summary>
[Collection(MeasurementsRunAlone.Name)]
public sealed class StopRaceTests
{
    private static readonly TimeSpan Timeout = Waiting.Timeout;

    [Theory]
    [InlineData(1, false)]
    [InlineData(1, true)]
    [InlineData(2, false)]
    [InlineData(2, true)]
    public void Stop_ThatReadAnEndedThreadsReceive_TakesTheNewReceiversMark_AndPutsItBack(int workers, bool messageWhileHeld)
    {
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        GreenThread? victim = null;
        using var stopHeld = new ManualResetEventSlim();
        using var releaseStop = new ManualResetEventSlim();
        using var markHeld = new ManualResetEventSlim();
        using var releaseMark = new ManualResetEventSlim();
        TestHooks.AfterStopReadWait = thread =>
        {
            if (thread == victim)
            {
                stopHeld.Set();
                releaseStop.Wait(Timeout);
            }
        };
        TestHooks.AfterStopTookMark = mailbox =>
        {
            if (mailbox == inbox)
            {
                markHeld.Set();
                releaseMark.Wait(Timeout);
            }
        };

        try
        {
            victim = scheduler.Spawn(ReceiveOnce(inbox, _ => { }), "victim");
            Waiting.Until(() => inbox.IsReceiverParked, "the victim parks");
            var stopper = new Thread(() => victim.Stop("late"));
            stopper.Start();
            Assert.True(stopHeld.Wait(Timeout), "the stop never read the victim's wait");

            // The victim takes a message and ends on its own; a newcomer takes the mailbox over and parks.
            inbox.Send(1);
            Assert.True(victim.Wait(Timeout));
            Assert.Equal(ThreadOutcome.Completed, victim.Outcome);
            var received = new ConcurrentQueue<int>();
            var newcomer = scheduler.Spawn(ReceiveOnce(inbox, received.Enqueue), "newcomer");
            Waiting.Until(() => inbox.IsReceiverParked, "the newcomer parks");

            // The stop, still holding the victim's receive, takes the newcomer's mark.
            releaseStop.Set();
            Assert.True(markHeld.Wait(Timeout), "the stop never took the newcomer's mark");
            if (messageWhileHeld)
            {
                // No mark to take: this send wakes nobody. The stop must wake the newcomer instead.
                inbox.Send(2);
            }

            releaseMark.Set();
            Assert.True(stopper.Join(Timeout));
            if (!messageWhileHeld)
            {
                // The mark is back: this send wakes the newcomer as usual.
                inbox.Send(2);
            }

            Assert.True(newcomer.Wait(Timeout), "the newcomer was left parked beside its message");
            Assert.Equal([2], received);
        }
        finally
        {
            TestHooks.AfterStopReadWait = null;
            TestHooks.AfterStopTookMark = null;
            releaseStop.Set();
            releaseMark.Set();
        }
    }

    [Theory]
    [InlineData(1, false)]
    [InlineData(1, true)]
    [InlineData(2, false)]
    [InlineData(2, true)]
    public void Stop_ThatReadAPlainReceive_WhileTheThreadParksInAChoiceOverTheSameMailbox_LeavesTheChoiceToItsOwnStop(int workers, bool messageWhileHeld)
    {
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        var other = new Mailbox<int>("other");
        var choice = new Choice(inbox.Recv(), other.Recv());
        var received = new ConcurrentQueue<int>();
        GreenThread? victim = null;
        Thread? stopper = null;
        using var stopHeld = new ManualResetEventSlim();
        using var releaseStop = new ManualResetEventSlim();
        using var workerHeld = new ManualResetEventSlim();
        using var releaseWorker = new ManualResetEventSlim();
        using var markHeld = new ManualResetEventSlim();
        using var releaseMark = new ManualResetEventSlim();
        TestHooks.AfterStopReadWait = thread =>
        {
            if (thread != victim)
            {
                return;
            }

            if (Thread.CurrentThread == stopper)
            {
                // The stopping thread, holding the plain receive it read.
                stopHeld.Set();
                releaseStop.Wait(Timeout);
            }
            else if (!workerHeld.IsSet)
            {
                // The victim's worker, after the choice parked, about to take the choice back itself.
                workerHeld.Set();
                releaseWorker.Wait(Timeout);
            }
        };
        TestHooks.AfterStopTookMark = mailbox =>
        {
            if (mailbox == inbox && Thread.CurrentThread == stopper)
            {
                markHeld.Set();
                releaseMark.Wait(Timeout);
            }
        };

        try
        {
            victim = scheduler.Spawn(Body(), "victim");
            Waiting.Until(() => inbox.IsReceiverParked, "the victim parks on its plain receive");
            stopper = new Thread(() => victim.Stop(StopReasonOf(messageWhileHeld)));
            stopper.Start();
            Assert.True(stopHeld.Wait(Timeout), "the stop never read the victim's wait");

            // The victim takes a message, then parks in its choice, whose park the worker finds stopped.
            inbox.Send(1);
            Assert.True(workerHeld.Wait(Timeout), "the victim's worker never saw the stop after the choice parked");
            Assert.True(Probe.IsParked(choice));

            // The stop takes the choice's mark on the mailbox, as if it were the plain receive's.
            releaseStop.Set();
            Assert.True(markHeld.Wait(Timeout), "the stop never took the choice's mark");
            if (messageWhileHeld)
            {
                // Finds no mark, so wakes nobody: the stop must fire the choice's branch for it.
                inbox.Send(2);
            }

            releaseMark.Set();
            Assert.True(stopper.Join(Timeout));
            releaseWorker.Set();
            Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));

            // With the message the choice was chosen and took it, and the thread stopped at its next wait; without,
            // the worker took the choice back. The mailbox holds nothing the thread did not take.
            Assert.Equal(messageWhileHeld ? [1, 2] : [1], received);
            Assert.Equal(0, inbox.Count);
            inbox.Send(3);
            Assert.Equal(1, inbox.Count);
        }
        finally
        {
            TestHooks.AfterStopReadWait = null;
            TestHooks.AfterStopTookMark = null;
            releaseStop.Set();
            releaseWorker.Set();
            releaseMark.Set();
        }

        IEnumerable<Event> Body()
        {
            var receive = inbox.Recv();
            yield return receive;
            received.Enqueue(receive.Value);
            while (true)
            {
                yield return choice;
                received.Enqueue(receive.Value);
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public async Task Stop_ThatReadAnEndedThreadsReceive_TakesAnAsyncReadersMark_WhileItsWaitIsCanceled_TheWaitStillEnds(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        GreenThread? victim = null;
        using var source = new CancellationTokenSource();
        using var stopHeld = new ManualResetEventSlim();
        using var releaseStop = new ManualResetEventSlim();
        TestHooks.AfterStopReadWait = thread =>
        {
            if (thread == victim)
            {
                stopHeld.Set();
                releaseStop.Wait(Timeout);
            }
        };
        TestHooks.AfterStopTookMark = mailbox =>
        {
            if (mailbox == inbox)
            {
                // While the stop holds the reader's mark, the wait's token is canceled: the cancellation finds no
                // mark to take back, so only the stop can end the wait now.
                source.Cancel();
            }
        };

        try
        {
            victim = scheduler.Spawn(ReceiveOnce(inbox, _ => { }), "victim");
            Waiting.Until(() => inbox.IsReceiverParked, "the victim parks");
            var stopper = new Thread(() => victim.Stop("late"));
            stopper.Start();
            Assert.True(stopHeld.Wait(Timeout), "the stop never read the victim's wait");

            // The victim takes a message and ends on its own; async code takes the mailbox over and waits.
            inbox.Send(1);
            Assert.True(victim.Wait(Timeout));
            var reader = inbox.AsChannelReader();
            var wait = reader.WaitToReadAsync(source.Token).AsTask();
            Waiting.Until(() => inbox.IsReceiverParked, "the reader's wait parks");

            releaseStop.Set();
            Assert.True(stopper.Join(Timeout));

            // Ended one way or the other (an early true from the stop's wake-up, or canceled), never left parked.
            try
            {
                await wait.WaitAsync(Timeout);
            }
            catch (OperationCanceledException)
            {
            }

            inbox.Send(2);
            Assert.Equal(2, await reader.ReadAsync().AsTask().WaitAsync(Timeout));
        }
        finally
        {
            TestHooks.AfterStopReadWait = null;
            TestHooks.AfterStopTookMark = null;
            releaseStop.Set();
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Stop_OfAPlainReceiver_WhileAnAsyncReaderIsBeingAttached_TakesTheThreadsWait(int workers)
    {
        using var scheduler = new Scheduler(workers);
        var inbox = new Mailbox<int>("inbox");
        using var looked = new ManualResetEventSlim();
        using var swap = new ManualResetEventSlim();
        using var swapped = new ManualResetEventSlim();
        using var releaseAttach = new ManualResetEventSlim();
        TestHooks.BeforeReaderSwap = mailbox =>
        {
            if (mailbox == inbox)
            {
                looked.Set();
                swap.Wait(Timeout);
            }
        };
        TestHooks.AfterReaderSwap = mailbox =>
        {
            if (mailbox == inbox)
            {
                swapped.Set();
                releaseAttach.Wait(Timeout);
            }
        };

        try
        {
            ChannelReader<int>? reader = null;
            var attacher = new Thread(() =>
            {
                try
                {
                    reader = inbox.AsChannelReader();
                }
                catch (InvalidOperationException)
                {
                }
            });
            attacher.Start();
            Assert.True(looked.Wait(Timeout), "the attach never looked at the receiver");

            // The victim binds after the attach's first look and before its swap, so neither sees the other yet.
            var victim = scheduler.Spawn(ReceiveOnce(inbox, _ => { }), "victim");
            Waiting.Until(() => inbox.IsReceiverParked, "the victim parks");
            swap.Set();
            Assert.True(swapped.Wait(Timeout), "the attach never put its reader in the mailbox");

            // The reader sits in the mailbox, not attached: the victim's plain receive is still the victim's to stop.
            Assert.True(victim.Stop("while a reader attaches"));
            Assert.Throws<GreenThreadStoppedException>(() => victim.Wait(Timeout));
            Assert.Equal(ThreadOutcome.Canceled, victim.Outcome);

            releaseAttach.Set();
            Assert.True(attacher.Join(Timeout));

            // The victim had ended by the attach's second look, so the attach stands, and the reader gets what comes.
            Assert.NotNull(reader);
            inbox.Send(3);
            Assert.True(reader.TryRead(out var message));
            Assert.Equal(3, message);
        }
        finally
        {
            TestHooks.BeforeReaderSwap = null;
            TestHooks.AfterReaderSwap = null;
            swap.Set();
            releaseAttach.Set();
        }
    }

    private static string StopReasonOf(bool messageWhileHeld) => messageWhileHeld ? "with a message while held" : "without";

    private static IEnumerable<Event> ReceiveOnce(Mailbox<int> inbox, Action<int> received)
    {
        var receive = inbox.Recv();
        yield return receive;
        received(receive.Value);
    }
}
