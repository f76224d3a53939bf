using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(1)]
    [InlineData(5)]
    [InlineData(16)]
    [InlineData(1000)]
    public void TrySend_Bounded_TakesExactlyCapacityMessages_ThenOneMorePerTake(int capacity)
    {
        var inbox = new Mailbox<int>(capacity, "bounded");
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
    public async Task Bounded_GreenOsAndAsyncSenders_EveryMessageOnceInPerSenderOrder_DepthNeverAboveCapacity()
    {
        const int capacity = 16;
        const int perSender = 50_000;
        const int green = 2;
        const int senders = green + 2;
        var inbox = new Mailbox<long>(capacity, "bounded");
        var completed = new long[senders];
        var counts = new long[senders];
        long outOfOrder = 0;
        long deepest = 0;
        long overCapacity = 0;

        var consumer = Scheduler.Spawn(Consume(), "consumer");
        for (var s = 0; s < green; s++)
        {
            Scheduler.Spawn(PutNumbered(inbox, s, perSender, completed), $"green sender {s}");
        }

        await SendFromOsThreads(inbox, green, perSender, completed);
        Join(consumer);
        WaitForAll();

        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(perSender, c));
        Assert.Equal(0, overCapacity);
        Assert.InRange(deepest, 1, capacity);

        IEnumerable<Event> Consume()
        {
            for (long received = 1; received <= (long)senders * perSender; received++)
            {
                var message = inbox.Recv();
                yield return message;

                // Sends completed can only be fewer than messages appended; so, with every take counted here, this
                // depth is at most the real one, which the capacity bounds.
                var depth = completed.Sum(c => Interlocked.Read(ref c)) - received;
                deepest = Math.Max(deepest, inbox.Count);
                if (depth > capacity || inbox.Count > capacity)
                {
                    overCapacity++;
                }

                if (!NextInSequence(message.Value, counts))
                {
                    outOfOrder++;
                }
            }
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
        Assert.Equal("capacity", Assert.Throws<ArgumentOutOfRangeException>(() => new Mailbox<int>(0)).ParamName);
        Assert.Equal("capacity", Assert.Throws<ArgumentOutOfRangeException>(() => new Mailbox<int>((1 << 20) + 1)).ParamName);
        Assert.Null(new Mailbox<int>().Capacity);
    }

    [Fact]
    public void Put_SenderParkedWhenSchedulerDisposed_EndsAndRunsFinally()
    {
        var inbox = new Mailbox<int>(1, "never drained");
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

    [Fact]
    public void Count_Unbounded_FollowsSendsAndTakesAcrossGrowth()
    {
        var inbox = new Mailbox<int>();
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
    public void Put_ReceiverTakesOneThenJoinsTheProducer_ProducerIsReleased()
    {
        // The receiver never takes or parks on the mailbox again, so only the take that freed the slot can release
        // the producer waiting for it.
        for (var round = 0; round < 200; round++)
        {
            var inbox = new Mailbox<int>(1, "one slot");
            var producer = Scheduler.Spawn(PutTwo(inbox), "producer");
            var receiver = Scheduler.Spawn(TakeOneThenJoin(inbox, producer), "receiver");
            Join(receiver);
            Join(producer);
            Assert.Equal(1, inbox.Count);
        }

        static IEnumerable<Event> PutTwo(Mailbox<int> inbox)
        {
            yield return inbox.Put(1);
            yield return inbox.Put(2);
        }

        static IEnumerable<Event> TakeOneThenJoin(Mailbox<int> inbox, GreenThread producer)
        {
            yield return inbox.Recv();
            yield return producer.Exited;
        }
    }

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
            inbox.SendAsync(1).AsTask().Wait(Timeout);
            yield break;
        }
    }

    /// <summary>A green sender: yields <c>Put</c> for <paramref name="count"/> numbered messages, counting each completed send if asked.</summary>
    private static IEnumerable<Event> PutNumbered(IMessageTarget<long> target, int sender, int count, long[]? completed = null)
    {
        for (var i = 0; i < count; i++)
        {
            yield return target.Put(Encode(sender, i));
            if (completed is not null)
            {
                Interlocked.Increment(ref completed[sender]);
            }
        }
    }

    /// <summary>
    /// Sends <paramref name="perSender"/> messages as sender <paramref name="first"/> from a blocked OS thread and as
    /// sender <paramref name="first"/> + 1 with awaited <c>SendAsync</c>, counting each completed send, and waits for both.
    /// </summary>
    private static async Task SendFromOsThreads(IMessageTarget<long> target, int first, int perSender, long[] completed)
    {
        var blocking = new Thread(() =>
        {
            for (var i = 0; i < perSender; i++)
            {
                target.Send(Encode(first, i));
                Interlocked.Increment(ref completed[first]);
            }
        });
        blocking.Start();
        var asynchronous = Task.Run(async () =>
        {
            for (var i = 0; i < perSender; i++)
            {
                await target.SendAsync(Encode(first + 1, i));
                Interlocked.Increment(ref completed[first + 1]);
            }
        });

        Assert.True(blocking.Join(Timeout), "the blocking sender finished");
        await asynchronous.WaitAsync(Timeout);
    }
}
