using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    // Tests written as one call run a body from RuntimeContract.Mailboxes.Scenarios.cs at a small size; the stress
    // tier, tests/ThreadIterators.StressTests, runs the same bodies long.

    [Fact]
    public void Recv_MessageAlreadyQueued_CompletesWithoutParking()
    {
        var inbox = new Mailbox<string>();
        inbox.Send("first");
        var received = new List<string>();
        Run(Receive(inbox, 1, received));
        Assert.Equal(["first"], received);
    }

    [Fact]
    public void Recv_EmptyMailbox_ParksUntilSendFromOsThread()
    {
        var inbox = new Mailbox<string>();
        var received = new List<string>();
        var receiver = Scheduler.Spawn(Receive(inbox, 2, received));
        WaitUntil(() => inbox.IsReceiverParked, "the receiver parks");
        inbox.Send("a");
        inbox.Send("b");
        Join(receiver);
        Assert.Equal(["a", "b"], received);
    }

    [Fact]
    public void Send_ManyProducers_OsAndGreen_EveryMessageOnceInPerSenderOrder() => SendManyProducersOsAndGreen(messagesPerSender: 25_000);

    [Fact]
    public void Recv_SecondLiveReceiver_FaultsNamingMailboxAndThread()
    {
        var inbox = new Mailbox<int>("shared inbox");
        var first = Scheduler.Spawn(Receive(inbox, 1, []), "first");
        WaitUntil(() => inbox.IsReceiverParked, "the first receiver parks");
        var second = Scheduler.Spawn(Receive(inbox, 1, []), "second");

        var error = Assert.Throws<InvalidOperationException>(() => second.Wait(Timeout));
        Assert.Contains("'shared inbox'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'second'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'first'", error.Message, StringComparison.Ordinal);

        inbox.Send(1);
        Join(first);
    }

    [Fact]
    public void Recv_AfterReceiverExited_AnotherThreadTakesOver()
    {
        var inbox = new Mailbox<int> { OutlivesReceiver = true };
        var received = new List<string>();
        inbox.Send(1);
        inbox.Send(2);
        Run(Receive(inbox, 1, received));
        Run(Receive(inbox, 1, received));
        Assert.Equal(["1", "2"], received);
    }

    [Fact]
    public void Recv_ParkedReceivers_10000_AllWokenAndCompleted() => RecvParkedReceivers(count: 10_000);

    [Fact]
    public void Send_RacingReceiversAboutToPark_NoWakeUpIsLost() => SendRacingReceiversAboutToPark(rounds: 20);

    [Fact]
    public void Send_OsSendersAndGreenRelaysIntoOneSink_ManyRounds_EveryMessageOnceInOrder() => SendOsSendersAndGreenRelaysIntoOneSink(rounds: 3);

    [Fact]
    public void Recv_ReceiverStoppedByDisposal_AnotherSchedulersThreadTakesTheMailboxOver()
    {
        var inbox = new Mailbox<int>("handed over") { OutlivesReceiver = true };
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var first = other.Spawn(Receive(inbox, 1, []), "first");
        WaitUntil(() => inbox.IsReceiverParked, "the first receiver parks");
        other.Dispose();
        Assert.Throws<OperationCanceledException>(() => first.Wait(Timeout));

        var received = new List<string>();
        var second = Scheduler.Spawn(Receive(inbox, 2, received), "second");
        inbox.Send(7);
        inbox.Send(8);
        Join(second);
        Assert.Equal(["7", "8"], received);
    }

    [Fact]
    public void Mailbox_ToStringAndDebuggerDisplay_NameTheMailbox()
    {
        var inbox = new Mailbox<int>("orders");
        Assert.Equal("Mailbox<Int32> 'orders'", inbox.ToString());
        Assert.Equal("Recv() on Mailbox<Int32> 'orders'", inbox.Recv().ToString());
        Assert.Same(inbox.Recv(), inbox.Recv());
    }

    private static IEnumerable<Event> Receive<T>(Mailbox<T> inbox, int count, List<string> received)
    {
        for (var i = 0; i < count; i++)
        {
            var message = inbox.Recv();
            yield return message;
            lock (received)
            {
                received.Add(message.Value!.ToString()!);
            }
        }
    }
}
