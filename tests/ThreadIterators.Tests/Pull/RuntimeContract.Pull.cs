using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    // Tests written as one call run a body from RuntimeContract.Pull.Scenarios.cs at a small size; the stress tier,
    // tests/ThreadIterators.StressTests, runs the same bodies long.

    [Theory]
    [InlineData(1, false)]
    [InlineData(10, false)]
    [InlineData(50, false)]
    [InlineData(10, true)]
    public void Pull_ThreeConsumers_EveryItemOnce_BatchesInOrder_NeverMoreOutstandingThanAsked(int batchSize, bool prefetch) => PullThreeConsumers(batchSize, prefetch, items: 3_001);

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
        var zero = Assert.Throws<ArgumentOutOfRangeException>(() => source.Connect(0));
        Assert.Equal("batchSize", zero.ParamName);
        Assert.Contains("'done'", zero.Message, StringComparison.Ordinal);
        source.Complete();
        Assert.Contains("'done'", Assert.Throws<InvalidOperationException>(() => source.Connect(1)).Message, StringComparison.Ordinal);
        Assert.Contains("'done'", Assert.Throws<InvalidOperationException>(() => source.Offer(1)).Message, StringComparison.Ordinal);
    }
}
