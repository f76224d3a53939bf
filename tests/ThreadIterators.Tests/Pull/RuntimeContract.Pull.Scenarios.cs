using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The pull tests that also run long: each body takes its size, RuntimeContract.Pull.cs runs it small and
// tests/ThreadIterators.StressTests, which compiles this file too, runs it at stress sizes.
public abstract partial class RuntimeContract
{
    /// <summary>
    /// A producer offers <paramref name="items"/> numbers to three consumers pulling batches of
    /// <paramref name="batchSize"/>, each with a second request outstanding if <paramref name="prefetch"/>.
    /// </summary>
    private void PullThreeConsumers(int batchSize, bool prefetch, int items)
    {
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
}
