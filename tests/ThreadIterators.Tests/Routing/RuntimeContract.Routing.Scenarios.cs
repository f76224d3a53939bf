using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The router tests that also run long: each body takes its size, RuntimeContract.Routing.cs runs it small and
// tests/ThreadIterators.StressTests, which compiles this file too, runs it at stress sizes.
public abstract partial class RuntimeContract
{
    /// <summary>A green producer puts <paramref name="messages"/> numbers through a router into three consumers' mailboxes of 8.</summary>
    private void RouterBoundedConsumersGreenProducerPuts(RoutingStrategy strategy, int messages)
    {
        const int capacity = 8;
        const int consumers = 3;
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
}
