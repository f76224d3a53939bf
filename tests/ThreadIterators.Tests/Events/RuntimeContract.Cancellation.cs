using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// <see cref="Event.WhenCanceled"/> under every configuration, alone and as a branch of a choice: canceled before the
/// wait, during it, and never.
/// </summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public void WhenCanceled_TokenCanceledBeforeTheWait_CompletesWithoutParking()
    {
        using var cancellation = new CancellationTokenSource();
        cancellation.Cancel();
        var whenCanceled = Event.WhenCanceled(cancellation.Token);
        var rounds = 0;

        // Reusable: every yield of a canceled token's event completes at once.
        Run(Body());
        Assert.Equal(100, rounds);

        IEnumerable<Event> Body()
        {
            for (var i = 0; i < 100; i++)
            {
                yield return whenCanceled;
                Assert.False(Probe.IsWaiting(whenCanceled));
                rounds++;
            }
        }
    }

    [Fact]
    public void WhenCanceled_CanceledWhileParked_ResumesOnAWorkerOfItsScheduler_NotOnTheCancelingThread()
    {
        using var cancellation = new CancellationTokenSource();
        var whenCanceled = Event.WhenCanceled(cancellation.Token);
        var resumedOn = 0;
        var waiter = Scheduler.Spawn(Body(), "waiter");

        WaitUntil(() => Probe.IsWaiting(whenCanceled), "the waiter parks on the token");
        var canceler = new Thread(cancellation.Cancel);
        canceler.Start();
        Assert.True(canceler.Join(Timeout));
        Join(waiter);
        Assert.Contains(Probe.WorkerThreadIds(Scheduler), id => id == Volatile.Read(ref resumedOn));
        Assert.NotEqual(canceler.ManagedThreadId, Volatile.Read(ref resumedOn));

        IEnumerable<Event> Body()
        {
            yield return whenCanceled;
            Assert.True(cancellation.IsCancellationRequested);
            Volatile.Write(ref resumedOn, Environment.CurrentManagedThreadId);
        }
    }

    [Fact]
    public void WhenCanceled_CanceledByAGreenThreadOfTheSameScheduler_ResumesTheWaiter()
    {
        using var cancellation = new CancellationTokenSource();
        var whenCanceled = Event.WhenCanceled(cancellation.Token);
        var go = new Mailbox<int>("go");
        var waiter = Scheduler.Spawn(Wait(), "waiter");
        var canceler = Scheduler.Spawn(Cancel(), "canceler");

        WaitUntil(() => Probe.IsWaiting(whenCanceled), "the waiter parks on the token");
        go.Send(1);
        Join(canceler);
        Join(waiter);

        IEnumerable<Event> Wait()
        {
            yield return whenCanceled;
        }

        IEnumerable<Event> Cancel()
        {
            yield return go.Recv();

            // The callback runs here, on this worker, inside Cancel: it only queues the waiter.
            cancellation.Cancel();
        }
    }

    [Fact]
    public void WhenCanceled_InAChoice_MessagesWinUntilTheTokenIsCanceled_ThenTheTokenWins_AndLaterMessagesStay()
    {
        using var cancellation = new CancellationTokenSource();
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        var choice = new Choice(inbox.Recv(), Event.WhenCanceled(cancellation.Token));
        var received = new List<int>();
        var chooser = Scheduler.Spawn(Choose(), "chooser");

        for (var m = 0; m < 100; m++)
        {
            inbox.Send(m);
            WaitUntil(() => Probe.IsParked(choice), "the chooser takes the message and parks again");
        }

        cancellation.Cancel();
        Join(chooser);
        inbox.Send(100);
        Assert.Equal(Enumerable.Range(0, 100), received);
        Assert.Equal(1, inbox.Count);

        IEnumerable<Event> Choose()
        {
            while (true)
            {
                yield return choice;
                if (choice.Index == 1)
                {
                    yield break;
                }

                received.Add(inbox.Recv().Value);
            }
        }
    }

    [Fact]
    public void WhenCanceled_InAChoice_TokenCanceledBeforeTheWait_IsChosenAtOnce()
    {
        using var cancellation = new CancellationTokenSource();
        cancellation.Cancel();
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        var choice = new Choice(inbox.Recv(), Event.WhenCanceled(cancellation.Token));

        Run(Choose());
        inbox.Send(1);
        Assert.Equal(1, inbox.Count);

        IEnumerable<Event> Choose()
        {
            for (var i = 0; i < 10; i++)
            {
                yield return choice;
                Assert.Equal(1, choice.Index);
            }
        }
    }

    [Fact]
    public void WhenCanceled_InAChoice_TokenThatIsNeverCanceled_NeverWins()
    {
        var inbox = new Mailbox<int>("inbox");
        var choice = new Choice(Event.WhenCanceled(CancellationToken.None), inbox.Recv());
        var received = new List<int>();
        var chooser = Scheduler.Spawn(Choose(), "chooser");

        for (var m = 0; m < 50; m++)
        {
            WaitUntil(() => Probe.IsParked(choice), "the chooser parks");
            inbox.Send(m);
        }

        Join(chooser);
        Assert.Equal(Enumerable.Range(0, 50), received);

        IEnumerable<Event> Choose()
        {
            while (received.Count < 50)
            {
                yield return choice;
                Assert.Equal(1, choice.Index);
                received.Add(inbox.Recv().Value);
            }
        }
    }

    [Fact]
    public void WhenCanceled_CanceledWhileTheChoiceIsParked_ChoosesTheToken_AndTheMailboxKeepsItsMessage()
    {
        using var cancellation = new CancellationTokenSource();
        var inbox = new Mailbox<int>("inbox") { OutlivesReceiver = true };
        var choice = new Choice(inbox.Recv(), Event.WhenCanceled(cancellation.Token));
        var chooser = Scheduler.Spawn(Choose(), "chooser");

        WaitUntil(() => Probe.IsParked(choice), "the chooser parks");
        cancellation.Cancel();
        Join(chooser);
        Assert.Equal(1, choice.Index);
        inbox.Send(1);
        Assert.Equal(1, inbox.Count);

        IEnumerable<Event> Choose()
        {
            yield return choice;
        }
    }

    [Fact]
    public void WhenCanceled_RacingMessagesInAChoice_EveryMessageIsReceivedOrLeft() => WhenCanceledRacingMessagesInAChoice(rounds: 200);

    [Fact]
    public void WhenCanceled_YieldedByASecondThread_FaultsIt_NamingBothThreads()
    {
        using var cancellation = new CancellationTokenSource();
        var whenCanceled = Event.WhenCanceled(cancellation.Token);
        var first = Scheduler.Spawn(Wait(), "first");
        WaitUntil(() => Probe.IsWaiting(whenCanceled), "the first thread parks on the event");

        var second = Scheduler.Spawn(Wait(), "second");
        var fault = Assert.Throws<InvalidOperationException>(() => second.Wait(Timeout));
        Assert.Contains("'second'", fault.Message, StringComparison.Ordinal);
        Assert.Contains("'first'", fault.Message, StringComparison.Ordinal);
        Assert.Contains("Event.WhenCanceled", fault.Message, StringComparison.Ordinal);

        cancellation.Cancel();
        Join(first);

        IEnumerable<Event> Wait()
        {
            yield return whenCanceled;
        }
    }

    [Fact]
    public void WhenCanceled_SchedulerDisposedWhileParked_EndsTheThread_AndALaterCancelWakesNobody()
    {
        using var cancellation = new CancellationTokenSource();
        var whenCanceled = Event.WhenCanceled(cancellation.Token);
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var waiter = scheduler.Spawn(Wait(), "waiter");
        WaitUntil(() => Probe.IsWaiting(whenCanceled), "the waiter parks on the token");

        scheduler.Dispose();
        Assert.Equal(ThreadOutcome.Canceled, waiter.Outcome);
        Assert.False(Probe.IsWaiting(whenCanceled));
        cancellation.Cancel();

        IEnumerable<Event> Wait()
        {
            yield return whenCanceled;
        }
    }
}
