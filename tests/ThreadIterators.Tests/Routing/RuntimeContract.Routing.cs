using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
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
    public void Router_BoundedConsumers_GreenProducerPuts_EveryMessageOnce_InOrderPerConsumer_DepthBounded(RoutingStrategy strategy)
    {
        const int capacity = 8;
        const int consumers = 3;
        const int messages = 60_000;
        var mailboxes = Enumerable.Range(0, consumers).Select(i => new Mailbox<int>(capacity, $"consumer {i}")).ToArray();
        var router = new Router<int>(strategy, mailboxes, "pool");
        var seen = new int[messages];
        long overCapacity = 0;
        long outOfOrder = 0;
        long received = 0;
        for (var c = 0; c < consumers; c++)
        {
            Scheduler.Spawn(Consume(mailboxes[c]), $"consumer {c}");
        }

        Scheduler.Spawn(Produce(), "producer");
        WaitForAll();
        Assert.Equal(messages, Interlocked.Read(ref received));
        Assert.All(seen, s => Assert.Equal(1, s));
        Assert.Equal(0, outOfOrder);
        Assert.Equal(0, overCapacity);

        IEnumerable<Event> Produce()
        {
            for (var i = 0; i < messages; i++)
            {
                yield return router.Put(i);
            }

            foreach (var mailbox in mailboxes)
            {
                yield return mailbox.Put(-1);
            }
        }

        IEnumerable<Event> Consume(Mailbox<int> inbox)
        {
            var last = -1;
            var message = inbox.Recv();
            while (true)
            {
                yield return message;
                if (message.Value < 0)
                {
                    yield break;
                }

                if (message.Value <= last)
                {
                    Interlocked.Increment(ref outOfOrder);
                }

                if (inbox.Count > capacity)
                {
                    Interlocked.Increment(ref overCapacity);
                }

                last = message.Value;
                Interlocked.Increment(ref seen[message.Value]);
                Interlocked.Increment(ref received);
            }
        }
    }

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
