using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>A pull source's offer, complete and its puller's next, each with a timeout, on a fake clock; every item counted.</summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public void Timeout_PullEvents_OfferNextAndCompleteTimeOut_AndEveryItemArrivesOnceInOrder()
    {
        const int Items = 5;
        var scheduler = CreateSchedulerWithFakeTime(out var clock);
        var source = new PullSource<int>("timed source");
        var puller = source.Connect(batchSize: 2);
        var go = new Mailbox<int>("go");
        var log = new ConcurrentQueue<string>();
        var received = new ConcurrentQueue<int>();
        TimedEvent<Event>? offer = null;
        TimedEvent<Event>? next = null;
        TimedEvent<Event>? complete = null;
        var producer = scheduler.Spawn(Produce(), "producer");

        // No consumer has asked: the first offer times out and keeps its item.
        WaitUntil(() => Volatile.Read(ref offer) is { } o && Probe.ParkedWithDeadline(scheduler, o), "the producer parks on its first offer");
        clock.Advance(TimedWait);
        WaitUntil(() => log.Contains("offer timed out"), "the first offer times out");

        // The consumer takes everything; then, with the producer held back, its Next times out.
        var consumer = scheduler.Spawn(Consume(), "consumer");
        WaitUntil(() => received.Count == 4 && Volatile.Read(ref next) is { } n && Probe.ParkedWithDeadline(scheduler, n), "the consumer has the two full batches and parks on the next");
        clock.Advance(TimedWait);
        WaitUntil(() => log.Contains("next timed out"), "the consumer's next times out");

        go.Send(1);
        Join(producer);
        Join(consumer);
        Assert.Equal(Enumerable.Range(0, Items), received);
        Assert.Equal(1, log.Count(l => l == "offer timed out"));
        Assert.Equal(1, log.Count(l => l == "next timed out"));
        Assert.Contains("completed", log);

        IEnumerable<Event> Produce()
        {
            var timed = source.Offer(0).WithTimeout(TimedWait);
            Volatile.Write(ref offer, timed);
            for (var i = 0; i < Items;)
            {
                // Offer returns the source's one offer event, which the timed event waits on: this sets its item.
#pragma warning disable TI0002
                source.Offer(i);
#pragma warning restore TI0002
                yield return timed;
                if (timed.TimedOut)
                {
                    log.Enqueue("offer timed out");
                }
                else
                {
                    i++;
                }
            }

            yield return go.Recv();
            var end = source.Complete().WithTimeout(TimedWait);
            Volatile.Write(ref complete, end);
            do
            {
                yield return end;
            }
            while (end.TimedOut);
        }

        IEnumerable<Event> Consume()
        {
            var timed = puller.Next().WithTimeout(TimedWait);
            Volatile.Write(ref next, timed);
            while (true)
            {
                yield return timed;
                if (timed.TimedOut)
                {
                    log.Enqueue("next timed out");
                    continue;
                }

                if (puller.IsCompleted)
                {
                    log.Enqueue("completed");
                    yield break;
                }

                foreach (var item in puller.Batch)
                {
                    received.Enqueue(item);
                }
            }
        }
    }
}
