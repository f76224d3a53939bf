using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

// Completing mailboxes: the end after the last message, refused sends, and the waits completion ends. The racing
// bodies are in RuntimeContract.Completion.Scenarios.cs.
public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(0, 3)]
    [InlineData(0, 300)]
    [InlineData(4, 4)]
    [InlineData(100, 37)]
    public void Complete_AfterMessages_ReceiverGetsEachInOrderThenTheEnd_AndEveryLaterReceiveGetsTheEndAtOnce(int capacity, int messages)
    {
        // 300 messages outgrow the first segments (4, 16, 64, 256 slots), so the end follows a chain of them.
        var inbox = capacity > 0 ? new Mailbox<int>(capacity, "finite") : new Mailbox<int>("finite");
        for (var i = 0; i < messages; i++)
        {
            Assert.True(inbox.TrySend(i));
        }

        inbox.Complete();
        Assert.True(inbox.IsCompleted);
        Assert.Equal(messages, inbox.Count);
        Assert.Equal(capacity > 0 ? capacity : null, inbox.Capacity);

        var received = new List<int>();
        ChannelClosedException? pastTheEnd = null;
        var tookAfterTheEnd = true;
        Run(Receive(), "reader");
        Assert.Equal(Enumerable.Range(0, messages), received);
        Assert.Contains("'finite'", pastTheEnd!.Message, StringComparison.Ordinal);
        Assert.Null(pastTheEnd.InnerException);
        Assert.False(tookAfterTheEnd);
        Assert.Equal(0, inbox.Count);
        Assert.Equal(capacity > 0 ? capacity : null, inbox.Capacity);

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            while (true)
            {
                yield return message;
                if (message.IsCompleted)
                {
                    break;
                }

                received.Add(message.Value);
            }

            pastTheEnd = Assert.Throws<ChannelClosedException>(() => message.Value);

            // The end stays: a receive completes with it at once, and TryRecv finds nothing.
            for (var i = 0; i < 3; i++)
            {
                yield return message;
                Assert.True(message.IsCompleted);
            }

            tookAfterTheEnd = inbox.TryRecv(out _);
        }
    }

    [Theory]
    [InlineData(false, false)]
    [InlineData(true, false)]
    [InlineData(false, true)]
    [InlineData(true, true)]
    public void Complete_ReceiverParkedOnTheEmptyMailbox_IsWokenAndGetsTheEnd(bool sentBefore, bool fromGreenThread)
    {
        // Parked on a mailbox never sent to (the parked sentinel), or on a drained segment (its park mark); completed
        // from plain code or from another green thread.
        var inbox = new Mailbox<string>("idle");
        var received = new List<string>();
        var sawTheEnd = false;
        var receiver = Scheduler.Spawn(Receive(), "receiver");
        if (sentBefore)
        {
            inbox.Send("only");
        }

        WaitUntil(() => inbox.IsReceiverParked && received.Count == (sentBefore ? 1 : 0), "the receiver parks on the empty mailbox");
        if (fromGreenThread)
        {
            Run(CompleteIt(), "completer");
        }
        else
        {
            inbox.Complete();
        }

        Join(receiver);
        Assert.True(sawTheEnd);
        Assert.Equal(sentBefore ? ["only"] : [], received);

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            while (true)
            {
                yield return message;
                if (message.IsCompleted)
                {
                    sawTheEnd = true;
                    yield break;
                }

                received.Add(message.Value);
            }
        }

        IEnumerable<Event> CompleteIt()
        {
            inbox.Complete();
            yield break;
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    public void Complete_WithError_TheEndAndEveryRefusedSendCarryIt_InAChannelClosedExceptionNamingTheMailbox(int capacity)
    {
        var inbox = capacity > 0 ? new Mailbox<int>(capacity, "failing") : new Mailbox<int>("failing");
        var error = new TimeoutException("the upstream went quiet");
        inbox.Send(1);
        inbox.Complete(error);

        var refused = Assert.Throws<ChannelClosedException>(() => inbox.Send(2));
        Assert.Same(error, refused.InnerException);
        Assert.Contains("'failing'", refused.Message, StringComparison.Ordinal);

        ChannelClosedException? pastTheEnd = null;
        var received = new List<int>();
        Run(Receive());
        Assert.Equal([1], received);
        Assert.Same(error, pastTheEnd!.InnerException);
        Assert.Contains("'failing'", pastTheEnd.Message, StringComparison.Ordinal);
        Assert.Contains("IsCompleted", pastTheEnd.Message, StringComparison.Ordinal);

        IEnumerable<Event> Receive()
        {
            var message = inbox.Recv();
            yield return message;
            received.Add(message.Value);
            yield return message;
            Assert.True(message.IsCompleted);
            pastTheEnd = Assert.Throws<ChannelClosedException>(() => message.Value);
        }
    }

    [Fact]
    public void Complete_Twice_ThrowsNamingTheMailbox_TryCompleteReturnsFalse_AndTheFirstErrorStays()
    {
        var first = new InvalidOperationException("first");
        var inbox = new Mailbox<int>("once");
        Assert.True(inbox.TryComplete(first));
        Assert.False(inbox.TryComplete(new InvalidOperationException("second")));
        var again = Assert.Throws<ChannelClosedException>(() => inbox.Complete());
        Assert.Contains("'once'", again.Message, StringComparison.Ordinal);
        Assert.Same(first, Assert.Throws<ChannelClosedException>(() => inbox.Send(1)).InnerException);

        var shared = new SharedMailbox<int>("shared once");
        Assert.False(shared.IsCompleted);
        shared.Complete();
        Assert.True(shared.IsCompleted);
        Assert.False(shared.TryComplete(first));
        again = Assert.Throws<ChannelClosedException>(() => shared.Complete(first));
        Assert.Contains("'shared once'", again.Message, StringComparison.Ordinal);
        Assert.Null(Assert.Throws<ChannelClosedException>(() => shared.Send(1)).InnerException);
    }

    [Theory]
    [InlineData(false, 0)]
    [InlineData(false, 4)]
    [InlineData(true, 0)]
    [InlineData(true, 4)]
    public async Task Complete_SendsAfterwards_AreRefused_SendThrows_TrySendFalse_SendAsyncFaults_PutThrows(bool shared, int capacity)
    {
        IMessageTarget<int> target = (shared, capacity) switch
        {
            (false, 0) => new Mailbox<int>("closed"),
            (false, _) => new Mailbox<int>(capacity, "closed"),
            (true, 0) => new SharedMailbox<int>("closed"),
            _ => new SharedMailbox<int>(capacity, "closed"),
        };
        Assert.True(target.TrySend(0));
        Complete(target);

        var refused = Assert.Throws<ChannelClosedException>(() => target.Send(1));
        Assert.Contains("'closed'", refused.Message, StringComparison.Ordinal);
        Assert.False(target.TrySend(2));
        var faulted = await Assert.ThrowsAsync<ChannelClosedException>(async () => await target.SendAsync(3));
        Assert.Contains("'closed'", faulted.Message, StringComparison.Ordinal);

        Exception? putRefused = null;
        var putter = Scheduler.Spawn(PutOne(), "late putter");
        Join(putter);
        Assert.IsType<ChannelClosedException>(putRefused);

        // Only the message sent before the completion is there.
        var received = new List<int>();
        Run(DrainToTheEnd(target, received));
        Assert.Equal([0], received);

        IEnumerable<Event> PutOne()
        {
            putRefused = Record.Exception(() => target.Put(4));
            yield break;
        }
    }

    [Theory]
    [InlineData(false, 0)]
    [InlineData(false, 8)]
    [InlineData(true, 0)]
    [InlineData(true, 8)]
    public Task Complete_RacingOsAndGreenSenders_EverySendThatReturnedArrivesOnceBeforeTheEnd_NoRefusedOneArrives(bool shared, int capacity) =>
        CompleteRacingSenders(shared, capacity, before: 500, rounds: 3);

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Complete_FullBoundedMailbox_ParkedPutBlockedSendAndPendingSendAsync_AllFail_AndNoneOfTheirMessagesArrives(bool shared)
    {
        IMessageTarget<int> target = shared ? new SharedMailbox<int>(2, "full") : new Mailbox<int>(2, "full");
        target.Send(1);
        target.Send(2);

        var putter = Scheduler.Spawn(Put(), "parked putter");
        WaitUntil(() => Probe.WaitingSenders(target) == 1, "the putter waits for room");
        var blocked = Task.Factory.StartNew(() => target.Send(4), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        WaitUntil(() => Probe.WaitingSenders(target) == 2, "the OS thread waits for room");
        var pending = target.SendAsync(5).AsTask();
        WaitUntil(() => Probe.WaitingSenders(target) == 3, "the asynchronous send waits for room");

        Complete(target);

        // The parked green thread ends with the refusal, as a throw at its yield would end it.
        var putRefused = Assert.Throws<ChannelClosedException>(() => putter.Wait(Timeout));
        Assert.Contains("'full'", putRefused.Message, StringComparison.Ordinal);
        Assert.Equal(ThreadOutcome.Faulted, putter.Outcome);
        await Assert.ThrowsAsync<ChannelClosedException>(() => blocked.WaitAsync(Timeout));
        await Assert.ThrowsAsync<ChannelClosedException>(() => pending.WaitAsync(Timeout));

        var received = new List<int>();
        Run(DrainToTheEnd(target, received));
        Assert.Equal([1, 2], received);

        IEnumerable<Event> Put()
        {
            yield return target.Put(3);
        }
    }

    [Fact]
    public void Complete_ReceiveInAParkedChoice_IsChosen_AndReportsTheEnd_AsItDoesAtOnceOnEveryLaterWait()
    {
        var finite = new Mailbox<int>("finite");
        var idle = new Mailbox<string>("idle");
        var work = new SharedMailbox<int>("work");
        var sharedReceive = work.CreateReceiveEvent();
        var indexes = new List<int>();
        var choosing = Scheduler.Spawn(Choose(), "chooser");
        finite.Send(7);
        WaitUntil(() => indexes.Count == 1 && finite.IsReceiverParked, "the chooser takes the message and parks again");

        finite.Complete();
        WaitUntil(() => indexes.Count == 2, "the completion is chosen");
        work.Complete();
        Join(choosing);

        // The message, the end of the mailbox, then the end of the shared mailbox: each choice chose the branch that
        // could complete, and an ended branch completes every time after.
        Assert.Equal([0, 0, 2, 2], indexes);

        IEnumerable<Event> Choose()
        {
            var receive = finite.Recv();
            var choice = new Choice(receive, idle.Recv(), sharedReceive);
            yield return choice;
            indexes.Add(choice.Index);
            Assert.Equal(7, receive.Value);

            yield return choice;
            indexes.Add(choice.Index);
            Assert.True(receive.IsCompleted);

            // From now on the mailbox's receive is always ready; a choice without it waits for the shared mailbox.
            var rest = new Choice(idle.Recv(), sharedReceive);
            yield return rest;
            indexes.Add(rest.Index + 1);
            Assert.True(sharedReceive.IsCompleted);
            Assert.Throws<ChannelClosedException>(() => sharedReceive.Value);

            yield return rest;
            indexes.Add(rest.Index + 1);

            // Both ended branches are ready now; the rotation picks one, and it reports the end.
            yield return choice;
            Assert.True(choice.Chosen is ReceiveEvent<int> { IsCompleted: true } or SharedReceiveEvent<int> { IsCompleted: true });
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    public void SharedMailbox_Complete_EveryParkedReceiverIsWokenAndGetsTheEnd_AfterEveryMessageIsTakenOnce(int capacity)
    {
        const int receivers = 4;
        const int messages = 40;
        var shared = capacity > 0 ? new SharedMailbox<int>(capacity, "pool") : new SharedMailbox<int>("pool");
        var taken = new int[messages];
        var ended = 0;
        var threads = Enumerable.Range(0, receivers).Select(r => Scheduler.Spawn(Consume(), $"receiver {r}")).ToList();
        WaitUntil(() => shared.WaitingReceivers == receivers, "every receiver parks");

        var sender = Scheduler.Spawn(Produce(), "producer");
        Join(sender);
        threads.ForEach(Join);
        Assert.Equal(receivers, ended);
        Assert.All(taken, t => Assert.Equal(1, t));
        Assert.Equal(0, shared.Count);

        IEnumerable<Event> Produce()
        {
            for (var i = 0; i < messages; i++)
            {
                yield return shared.Put(i);
            }

            shared.Complete();
        }

        IEnumerable<Event> Consume()
        {
            var message = shared.CreateReceiveEvent();
            while (true)
            {
                yield return message;
                if (message.IsCompleted)
                {
                    Interlocked.Increment(ref ended);
                    yield break;
                }

                Interlocked.Increment(ref taken[message.Value]);
            }
        }
    }

    [Fact]
    public void SharedMailbox_CompletedWithMessagesLeft_ReceiversThatStartLaterTakeThemAll_ThenEachGetsTheEnd_TryRecvToo()
    {
        var shared = new SharedMailbox<int>("backlog");
        for (var i = 0; i < 100; i++)
        {
            shared.Send(i);
        }

        shared.Complete(new OperationCanceledException("shut down"));
        Assert.Equal(100, shared.Count);
        var taken = new ConcurrentBag<int>();
        var ends = 0;
        var threads = Enumerable.Range(0, 3).Select(r => Scheduler.Spawn(Consume(), $"receiver {r}")).ToList();
        threads.ForEach(Join);
        Assert.Equal(3, ends);
        Assert.Equal(Enumerable.Range(0, 100), taken.OrderBy(m => m));
        Assert.False(shared.TryRecv(out _));

        IEnumerable<Event> Consume()
        {
            var message = shared.CreateReceiveEvent();
            while (true)
            {
                yield return message;
                if (message.IsCompleted)
                {
                    var pastTheEnd = Assert.Throws<ChannelClosedException>(() => message.Value);
                    Assert.IsType<OperationCanceledException>(pastTheEnd.InnerException);
                    Assert.Contains("'backlog'", pastTheEnd.Message, StringComparison.Ordinal);
                    Interlocked.Increment(ref ends);
                    yield break;
                }

                taken.Add(message.Value);
            }
        }
    }

    /// <summary>Receives from a mailbox or shared mailbox until its end, adding each message to <paramref name="received"/>.</summary>
    private static IEnumerable<Event> DrainToTheEnd(IMessageTarget<int> target, List<int> received)
    {
        if (target is Mailbox<int> mailbox)
        {
            var message = mailbox.Recv();
            yield return message;
            while (!message.IsCompleted)
            {
                received.Add(message.Value);
                yield return message;
            }
        }
        else
        {
            var message = ((SharedMailbox<int>)target).CreateReceiveEvent();
            yield return message;
            while (!message.IsCompleted)
            {
                received.Add(message.Value);
                yield return message;
            }
        }
    }
}
