using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    // Tests written as one call run a body from RuntimeContract.SharedMailbox.Scenarios.cs at a small size; the stress
    // tier, tests/ThreadIterators.StressTests, runs the same bodies long.

    [Theory]
    [InlineData(0)]
    [InlineData(8)]
    public Task SharedMailbox_ManySendersThreeReceivers_EveryMessageExactlyOnce_DepthBounded(int capacity) => SharedMailboxManySendersThreeReceivers(capacity, perSender: 2_000);

    [Fact]
    public void SharedMailbox_BoundedOneReceiver_TwoGreenSenders_PerSenderOrderKept() => SharedMailboxBoundedOneReceiverTwoGreenSenders(perSender: 2_000);

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
        var zero = Assert.Throws<ArgumentOutOfRangeException>(() => new SharedMailbox<int>(0, "jobs"));
        Assert.Equal("capacity", zero.ParamName);
        Assert.Contains("'jobs'", zero.Message, StringComparison.Ordinal);
        Assert.Null(new SharedMailbox<int>().Capacity);
    }
}
