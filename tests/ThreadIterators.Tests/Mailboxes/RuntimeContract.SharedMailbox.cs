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
    [InlineData(0)]
    [InlineData(8)]
    public async Task SharedMailbox_ManySendersThreeReceivers_EveryMessageExactlyOnce_DepthBounded(int capacity)
    {
        const int perSender = 40_000;
        const int receivers = 3;
        const int green = 2;
        const int senders = green + 2;
        var shared = capacity > 0 ? new SharedMailbox<long>(capacity, "work") : new SharedMailbox<long>("work");
        var seen = new int[senders * perSender];
        var completed = new long[senders];
        long received = 0;
        long overCapacity = 0;
        long stop = -1;

        for (var r = 0; r < receivers; r++)
        {
            Scheduler.Spawn(Consume(), $"receiver {r}");
        }

        for (var s = 0; s < green; s++)
        {
            Scheduler.Spawn(PutNumbered(shared, s, perSender, completed), $"green sender {s}");
        }

        await SendFromOsThreads(shared, green, perSender, completed);
        WaitUntil(() => Scheduler.LiveThreadCount == receivers, "the green senders finish");
        for (var r = 0; r < receivers; r++)
        {
            shared.Send(stop);
        }

        WaitForAll();
        Assert.Equal((long)senders * perSender, Interlocked.Read(ref received));
        Assert.All(seen, s => Assert.Equal(1, s));
        Assert.Equal(0, overCapacity);
        Assert.Equal(0, shared.Count);

        IEnumerable<Event> Consume()
        {
            var message = shared.CreateReceiveEvent();
            while (true)
            {
                yield return message;
                if (message.Value == stop)
                {
                    yield break;
                }

                Interlocked.Increment(ref seen[((int)(message.Value >> 32) * perSender) + (int)message.Value]);
                Interlocked.Increment(ref received);

                // Completed sends, read first, are at most the appends then; the takes counted after that lag the
                // real takes by at most one per receiver. So this exceeds the capacity only if the mailbox did.
                var sent = completed.Sum(c => Interlocked.Read(ref c));
                if (capacity > 0 && (shared.Count > capacity || sent - Interlocked.Read(ref received) > capacity + receivers))
                {
                    Interlocked.Increment(ref overCapacity);
                }
            }
        }
    }

    [Fact]
    public void SharedMailbox_BoundedOneReceiver_TwoGreenSenders_PerSenderOrderKept()
    {
        const int perSender = 30_000;
        var shared = new SharedMailbox<long>(4, "ordered");
        var counts = new long[2];
        long outOfOrder = 0;
        var receiver = Scheduler.Spawn(Consume(), "receiver");
        Scheduler.Spawn(PutNumbered(shared, 0, perSender), "sender 0");
        Scheduler.Spawn(PutNumbered(shared, 1, perSender), "sender 1");
        Join(receiver);
        WaitForAll();
        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(perSender, c));

        IEnumerable<Event> Consume()
        {
            var message = shared.CreateReceiveEvent();
            for (var received = 0; received < 2 * perSender; received++)
            {
                yield return message;
                if (!NextInSequence(message.Value, counts))
                {
                    outOfOrder++;
                }
            }
        }
    }

    [Fact]
    public void SharedMailbox_IdleReceivers_EachMessageWakesOne_EveryMessageTakenOnce()
    {
        const int receivers = 4;
        var shared = new SharedMailbox<int>("jobs");
        var taken = new List<int>();
        for (var r = 0; r < receivers; r++)
        {
            Scheduler.Spawn(TakeOne(), $"receiver {r}");
        }

        WaitUntil(() => shared.WaitingReceivers == receivers, "every receiver parks");
        for (var i = 0; i < receivers; i++)
        {
            shared.Send(i);
        }

        WaitForAll();
        Assert.Equal([0, 1, 2, 3], taken.Order());
        Assert.Equal(0, shared.Count);

        IEnumerable<Event> TakeOne()
        {
            var message = shared.CreateReceiveEvent();
            yield return message;
            lock (taken)
            {
                taken.Add(message.Value);
            }
        }
    }

    [Fact]
    public void SharedMailbox_ReceiveEventYieldedByAnotherThread_FaultsNamingBoth()
    {
        var shared = new SharedMailbox<int>("jobs");
        var receive = shared.CreateReceiveEvent();
        var first = Scheduler.Spawn(Yield(), "owner");
        WaitUntil(() => shared.WaitingReceivers == 1, "the owner parks");
        var second = Scheduler.Spawn(Yield(), "borrower");
        var error = Assert.Throws<InvalidOperationException>(() => second.Wait(Timeout));
        Assert.Contains("'borrower'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'owner'", error.Message, StringComparison.Ordinal);
        shared.Send(1);
        Join(first);
        Assert.Equal(1, receive.Value);

        IEnumerable<Event> Yield()
        {
            yield return receive;
        }
    }

    [Fact]
    public void SharedMailbox_Bounded_TrySendStopsAtCapacity_AndInvalidCapacityThrows()
    {
        var shared = new SharedMailbox<int>(3, "small");
        Assert.Equal(3, shared.Capacity);
        Assert.True(shared.TrySend(1));
        Assert.True(shared.TrySend(2));
        Assert.True(shared.TrySend(3));
        Assert.False(shared.TrySend(4));
        Assert.Equal(3, shared.Count);
        Assert.Equal("capacity", Assert.Throws<ArgumentOutOfRangeException>(() => new SharedMailbox<int>(0)).ParamName);
        Assert.Null(new SharedMailbox<int>().Capacity);
    }
}
