using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(1, false)]
    [InlineData(10, false)]
    [InlineData(50, false)]
    [InlineData(10, true)]
    public void Pull_ThreeConsumers_EveryItemOnce_BatchesInOrder_NeverMoreOutstandingThanAsked(int batchSize, bool prefetch)
    {
        const int items = 30_001;
        const int consumers = 3;
        var source = new PullSource<int>("numbers");
        var pullers = Enumerable.Range(0, consumers).Select(_ => source.Connect(batchSize, prefetch)).ToArray();
        var seen = new int[items];
        long offered = 0;
        long received = 0;
        long overAsked = 0;
        long outOfOrder = 0;
        long badBatches = 0;
        var requestsPerConsumer = prefetch ? 2 : 1;

        Scheduler.Spawn(Produce(), "producer");
        for (var c = 0; c < consumers; c++)
        {
            Scheduler.Spawn(Consume(pullers[c]), $"consumer {c}");
        }

        WaitForAll();
        Assert.Equal(items, Interlocked.Read(ref received));
        Assert.All(seen, s => Assert.Equal(1, s));
        Assert.Equal(0, outOfOrder);
        Assert.Equal(0, badBatches);
        Assert.Equal(0, overAsked);
        Assert.All(pullers, p => Assert.True(p.IsCompleted));

        IEnumerable<Event> Produce()
        {
            for (var i = 0; i < items; i++)
            {
                yield return source.Offer(i);

                // An item is handed out only against a request: at most every consumer's batches are out at once.
                if (Interlocked.Increment(ref offered) - Interlocked.Read(ref received) > (long)consumers * requestsPerConsumer * batchSize)
                {
                    Interlocked.Increment(ref overAsked);
                }
            }

            yield return source.Complete();
        }

        IEnumerable<Event> Consume(Puller<int> puller)
        {
            var last = -1;
            while (true)
            {
                yield return puller.Next();
                if (puller.IsCompleted)
                {
                    Assert.Equal(0, puller.Batch.Count);
                    yield break;
                }

                var batch = puller.Batch;
                if (batch.Count == 0 || batch.Count > batchSize)
                {
                    Interlocked.Increment(ref badBatches);
                }

                // The producer offers in order and answers requests oldest first, so each consumer's items rise
                // within a batch and from one batch to the next.
                for (var i = 0; i < batch.Count; i++)
                {
                    if (batch[i] <= last)
                    {
                        Interlocked.Increment(ref outOfOrder);
                    }

                    last = batch[i];
                    Interlocked.Increment(ref seen[batch[i]]);
                }

                Interlocked.Add(ref received, batch.Count);
            }
        }
    }

    [Fact]
    public void Pull_NoRequestOutstanding_ProducerParksUntilAConsumerAsks()
    {
        var source = new PullSource<string>("lazy");
        var puller = source.Connect(batchSize: 2);
        var offered = 0;
        var producer = Scheduler.Spawn(Produce(), "producer");
        WaitUntil(() => source.Requests.IsReceiverParked, "the producer waits for a request");
        Assert.Equal(0, Volatile.Read(ref offered));

        var batches = new List<string>();
        Run(Consume(), "consumer");
        Join(producer);
        Assert.Equal(["a,b", "c"], batches);

        IEnumerable<Event> Produce()
        {
            foreach (var item in new[] { "a", "b", "c" })
            {
                yield return source.Offer(item);
                Interlocked.Increment(ref offered);
            }

            yield return source.Complete();
        }

        IEnumerable<Event> Consume()
        {
            while (true)
            {
                yield return puller.Next();
                if (puller.IsCompleted)
                {
                    yield break;
                }

                batches.Add(string.Join(",", puller.Batch.ToArray()));
            }
        }
    }

    [Fact]
    public void Pull_MisuseAndBadArguments_Throw()
    {
        var source = new PullSource<int>("done");
        Assert.Equal("batchSize", Assert.Throws<ArgumentOutOfRangeException>(() => source.Connect(0)).ParamName);
        source.Complete();
        Assert.Contains("'done'", Assert.Throws<InvalidOperationException>(() => source.Connect(1)).Message, StringComparison.Ordinal);
        Assert.Contains("'done'", Assert.Throws<InvalidOperationException>(() => source.Offer(1)).Message, StringComparison.Ordinal);
    }
}
