using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    // Tests written as one call run a body from RuntimeContract.BoundedMailboxes.Scenarios.cs at a small size; the
    // stress tier, tests/ThreadIterators.StressTests, runs the same bodies long.

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(16)]
    [InlineData(17)]
    [InlineData(1000)]
    [InlineData(1025)]
    public void TrySend_Bounded_TakesExactlyCapacityMessages_ThenOneMorePerTake(int capacity)
    {
        var inbox = new Mailbox<int>(capacity, "bounded") { OutlivesReceiver = true };
        Assert.Equal(capacity, inbox.Capacity);
        var sent = 0;
        while (inbox.TrySend(sent))
        {
            sent++;
        }

        Assert.Equal(capacity, sent);
        Assert.Equal(capacity, inbox.Count);

        // Three laps through the slots: each take makes room for exactly one more message.
        var received = new List<int>();
        Run(TakeAndRefill());
        Assert.Equal(Enumerable.Range(0, 3 * capacity), received);
        Assert.Equal(capacity, inbox.Count);

        IEnumerable<Event> TakeAndRefill()
        {
            for (var i = 0; i < 3 * capacity; i++)
            {
                var message = inbox.Recv();
                yield return message;
                received.Add(message.Value);
                Assert.True(inbox.TrySend(sent++), "a take made room for one message");
                Assert.False(inbox.TrySend(-1), "the mailbox is full again");
            }
        }
    }

    [Fact]
    public void Put_FullMailbox_ParksSenderUntilReceiverTakes_EveryMessageInOrder()
    {
        const int capacity = 4;
        var inbox = new Mailbox<int>(capacity, "pages");
        var sender = Scheduler.Spawn(Produce(), "producer");
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the producer waits for room");
        Assert.Equal(capacity, inbox.Count);
        Assert.False(sender.IsCompleted);
        Assert.False(inbox.TrySend(-1));

        var received = new List<string>();
        Run(Receive(inbox, 10, received), "consumer");
        Join(sender);
        Assert.Equal(Enumerable.Range(0, 10).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)), received);

        IEnumerable<Event> Produce()
        {
            for (var i = 0; i < 10; i++)
            {
                yield return inbox.Put(i);
            }
        }
    }

    [Fact]
    public Task Bounded_GreenOsAndAsyncSenders_EveryMessageOnceInPerSenderOrder_DepthNeverAboveCapacity() => BoundedGreenOsAndAsyncSenders(perSender: 2_000);

    [Theory]
    [InlineData(5)]
    [InlineData(100)]
    [InlineData(1000)]
    public async Task Bounded_GrowingWhileSendersRace_EveryMessageOnceInPerSenderOrder_DepthNeverAboveCapacity(int capacity)
    {
        // Fresh mailboxes, so that each round grows its slots again while four senders race the receiver.
        for (var round = 0; round < 5; round++)
        {
            await BoundedGreenOsAndAsyncSenders(perSender: 500, capacity);
        }
    }

    [Fact]
    public void Send_BoundedFromGreenThread_FaultsNamingThreadAndMailbox()
    {
        var inbox = new Mailbox<int>(8, "orders");
        var sender = Scheduler.Spawn(SendOne(), "impatient");
        var error = Assert.Throws<InvalidOperationException>(() => sender.Wait(Timeout));
        Assert.Contains("'impatient'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'orders'", error.Message, StringComparison.Ordinal);
        Assert.Contains("Put", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, inbox.Count);

        IEnumerable<Event> SendOne()
        {
            inbox.Send(1);
            yield break;
        }
    }

    [Fact]
    public void Put_FromOsThread_ThrowsNamingMailbox()
    {
        var inbox = new Mailbox<int>(8, "orders");
        var error = Assert.Throws<InvalidOperationException>(() => inbox.Put(1));
        Assert.Contains("'orders'", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, inbox.Count);
    }

    [Fact]
    public void Put_YieldedAgainAfterItSent_FaultsInsteadOfSendingTwice()
    {
        var inbox = new Mailbox<int>(1, "single");
        inbox.TrySend(0);
        var sender = Scheduler.Spawn(PutTwice(), "repeater");
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the sender waits for room");
        var received = new List<string>();
        Run(Receive(inbox, 2, received));
        var error = Assert.Throws<InvalidOperationException>(() => sender.Wait(Timeout));
        Assert.Contains("'repeater'", error.Message, StringComparison.Ordinal);
        Assert.Equal(["0", "1"], received);
        Assert.Equal(0, inbox.Count);

        IEnumerable<Event> PutTwice()
        {
            var put = inbox.Put(1);
            yield return put;
            yield return put;
        }
    }

    [Fact]
    public async Task Send_BlockedOsThread_CancelledWithoutSending()
    {
        var inbox = new Mailbox<int>(2, "full");
        inbox.Send(1);
        inbox.Send(2);
        using var cancel = new CancellationTokenSource();
        var blocked = Task.Factory.StartNew(() => inbox.Send(3, cancel.Token), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the OS thread waits for room");
        cancel.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => blocked.WaitAsync(Timeout));

        var received = new List<string>();
        Run(Receive(inbox, 2, received));
        Assert.Equal(["1", "2"], received);
        Assert.Equal(0, inbox.Count);
    }

    [Fact]
    public async Task SendAsync_Full_CompletesOnceReceiverTakes_CancelledOneSendsNothing()
    {
        var inbox = new Mailbox<int>(1, "one slot");
        Assert.True(inbox.SendAsync(1).AsTask().IsCompletedSuccessfully);
        var waiting = inbox.SendAsync(2).AsTask();
        using var cancel = new CancellationTokenSource();
        var cancelled = inbox.SendAsync(3, cancel.Token).AsTask();
        Assert.False(waiting.IsCompleted);
        cancel.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);

        var received = new List<string>();
        Run(Receive(inbox, 2, received));
        await waiting.WaitAsync(Timeout);
        Assert.Equal(["1", "2"], received);
        Assert.Equal(0, inbox.Count);
    }

    [Fact]
    public void Bounded_InvalidCapacity_ThrowsNamingCapacity()
    {
        Assert.Equal("capacity", Assert.Throws<ArgumentOutOfRangeException>(() => new Mailbox<int>(-1)).ParamName);
        Assert.Equal("capacity", Assert.Throws<ArgumentOutOfRangeException>(() => new Mailbox<int>((1 << 20) + 1)).ParamName);
        Assert.Null(new Mailbox<int>().Capacity);
    }

    [Fact]
    public void Put_SenderParkedWhenSchedulerDisposed_EndsAndRunsFinally()
    {
        var inbox = new Mailbox<int>(1, "never drained") { OutlivesReceiver = true };
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var cleanedUp = false;
        var sender = other.Spawn(PutTwo(), "stuck");
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the sender waits for room");
        other.Dispose();
        Assert.Throws<OperationCanceledException>(() => sender.Wait(Timeout));
        Assert.True(cleanedUp);

        // The mailbox still works for everyone else: its one message is there, and the slot it frees takes another.
        var received = new List<string>();
        Run(Receive(inbox, 1, received));
        Assert.True(inbox.TrySend(9));
        Assert.Equal(["1"], received);

        IEnumerable<Event> PutTwo()
        {
            try
            {
                yield return inbox.Put(1);
                yield return inbox.Put(2);
            }
            finally
            {
                cleanedUp = true;
            }
        }
    }

    [Theory]
    [InlineData(5)]
    [InlineData(17)]
    [InlineData(100)]
    [InlineData(1000)]
    public void TrySend_Bounded_TakesBetweenGrowths_FillsToExactlyCapacity_EveryMessageInOrder(int capacity)
    {
        // The slots grow as messages queue (4, 16, 64, ... up to the capacity); a growth holds back the slots that
        // messages still queued before it may need, and each take from behind it gives one back. Whatever takes
        // come between the growths, a full mailbox holds exactly the capacity, and messages come out in order.
        var inbox = new Mailbox<int>(capacity, "bounded");
        var random = new Random(capacity);
        var sent = 0;
        var next = 0;
        var fills = 0;
        Run(FillAndTake());
        Assert.True(fills >= 20, $"only {fills} fills");

        IEnumerable<Event> FillAndTake()
        {
            for (var step = 0; step < 60; step++)
            {
                // Send a few, take a few, then fill to the brim.
                for (var i = random.Next(0, 6); i > 0 && inbox.TrySend(sent); i--)
                {
                    sent++;
                }

                Take(random.Next(0, 4));
                while (inbox.TrySend(sent))
                {
                    sent++;
                }

                Assert.Equal(capacity, sent - next);
                Assert.Equal(capacity, inbox.Count);
                fills++;

                // Take a random share, sometimes all of it, so that the next fill starts from a small ring or a large one.
                Take(random.Next(4) == 0 ? capacity : random.Next(1, capacity + 1));
                yield return Event.Yield;
            }

            Take(capacity);
            Assert.Equal(sent, next);
        }

        void Take(int count)
        {
            for (var i = 0; i < count && inbox.TryRecv(out var message); i++)
            {
                Assert.Equal(next++, message);
            }
        }
    }

    [Fact]
    public void Bounded_LargeCapacity_AllocatesSlotsAsMessagesQueue_NotUpFront()
    {
        // A bounded mailbox once allocated its whole capacity's slots when made (16 KB for 1,024 references).
        var before = GC.GetAllocatedBytesForCurrentThread();
        var inbox = new Mailbox<string>(1024, "outbox");
        var made = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(made < 1024, $"a bounded mailbox of 1,024 took {made} bytes before its first message");
        Assert.True(inbox.TrySend("one"));
        Assert.Equal(1024, inbox.Capacity);

        // Filling it grows the ring to the capacity rounded up, no further.
        before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 1; i < 1024; i++)
        {
            Assert.True(inbox.TrySend("more"));
        }

        var grown = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.False(inbox.TrySend("one too many"));
        Assert.InRange(grown, 16 * 1024, 2 * 16 * 1024);
    }

    [Fact]
    public void Count_Unbounded_FollowsSendsAndTakesAcrossGrowth()
    {
        var inbox = new Mailbox<int> { OutlivesReceiver = true };
        Assert.Equal(0, inbox.Count);
        for (var i = 0; i < 1000; i++)
        {
            inbox.Send(i);
        }

        Assert.Equal(1000, inbox.Count);
        var received = new List<string>();
        Run(Receive(inbox, 600, received));
        Assert.Equal(400, inbox.Count);
        Assert.True(inbox.TrySend(1000));
        Assert.Equal(401, inbox.Count);
    }

    [Fact]
    public void Put_ReceiverTakesOneThenJoinsTheProducer_ProducerIsReleased() => PutReceiverTakesOneThenJoinsTheProducer(rounds: 20);

    [Fact]
    public void SendAsync_BoundedFromGreenThread_FaultsNamingThreadAndMailbox()
    {
        var inbox = new Mailbox<int>(8, "orders");
        var sender = Scheduler.Spawn(SendOne(), "hasty");
        var error = Assert.Throws<InvalidOperationException>(() => sender.Wait(Timeout));
        Assert.Contains("'hasty'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'orders'", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, inbox.Count);

        IEnumerable<Event> SendOne()
        {
#pragma warning disable TI0001 // SendAsync refuses a green thread and throws before the wait; the refusal is what this test checks.
            inbox.SendAsync(1).AsTask().Wait(Timeout);
#pragma warning restore TI0001
            yield break;
        }
    }

}
