using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    // Tests written as one call run a body from RuntimeContract.Routing.Scenarios.cs at a small size; the stress tier,
    // tests/ThreadIterators.StressTests, runs the same bodies long.

    [Fact]
    public void Router_RoundRobin_EachMailboxInTurn()
    {
        var mailboxes = Enumerable.Range(0, 3).Select(i => new Mailbox<int>($"consumer {i}")).ToArray();
        var router = new Router<int>(RoutingStrategy.RoundRobin, mailboxes);
        for (var i = 0; i < 9; i++)
        {
            Assert.True(router.TrySend(i));
        }

        var received = mailboxes.Select(_ => new List<string>()).ToArray();
        for (var c = 0; c < 3; c++)
        {
            Run(Receive(mailboxes[c], 3, received[c]));
        }

        Assert.Equal(["0", "3", "6"], received[0]);
        Assert.Equal(["1", "4", "7"], received[1]);
        Assert.Equal(["2", "5", "8"], received[2]);
    }

    [Fact]
    public void Router_SmallestMailbox_PicksFewestMessages_ThenAnIdleReceiver()
    {
        var mailboxes = Enumerable.Range(0, 3).Select(i => new Mailbox<int>($"consumer {i}")).ToArray();
        var router = new Router<int>(RoutingStrategy.SmallestMailbox, mailboxes);
        for (var i = 0; i < 5; i++)
        {
            mailboxes[0].Send(i);
        }

        mailboxes[1].Send(0);
        for (var i = 0; i < 3; i++)
        {
            mailboxes[2].Send(i);
        }

        router.Send(100);
        Assert.Equal([5, 2, 3], mailboxes.Select(m => m.Count));
        router.Send(101);
        router.Send(102);
        Assert.Equal([5, 3, 4], mailboxes.Select(m => m.Count));

        // An idle consumer with an empty mailbox takes the next message even when others are as short.
        var idle = new Mailbox<int>("idle");
        var routed = new Router<int>(RoutingStrategy.SmallestMailbox, [new Mailbox<int>("never received from"), idle]);
        var received = new List<string>();
        var consumer = Scheduler.Spawn(Receive(idle, 1, received), "idle consumer");
        WaitUntil(() => idle.IsReceiverParked, "the idle consumer parks");
        routed.Send(7);
        Join(consumer);
        Assert.Equal(["7"], received);
    }

    [Theory]
    [InlineData(RoutingStrategy.RoundRobin)]
    [InlineData(RoutingStrategy.SmallestMailbox)]
    public void Router_BoundedConsumers_GreenProducerPuts_EveryMessageOnce_InOrderPerConsumer_DepthBounded(RoutingStrategy strategy) => RouterBoundedConsumersGreenProducerPuts(strategy, messages: 3_000);

    [Fact]
    public void Router_InvalidArguments_Throw()
    {
        var one = new Mailbox<int>();
        Assert.Equal("routees", Assert.Throws<ArgumentException>(() => new Router<int>(RoutingStrategy.RoundRobin, [])).ParamName);
        Assert.Equal("routees", Assert.Throws<ArgumentException>(() => new Router<int>(RoutingStrategy.RoundRobin, [one, one])).ParamName);
        Assert.Equal("strategy", Assert.Throws<ArgumentOutOfRangeException>(() => new Router<int>((RoutingStrategy)7, [one])).ParamName);
        Assert.Equal("Router<Int32> (RoundRobin, 1 mailboxes) 'r'", new Router<int>(RoutingStrategy.RoundRobin, [one], "r").ToString());
    }
}
