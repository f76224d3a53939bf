using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void CreditWindow_TwoProducersOneWindow_NeverMoreThanWindowUnacknowledged_EveryMessageInOrder()
    {
        const int window = 8;
        const int perProducer = 20_000;
        var credits = new CreditWindow(window, "pages");
        var inbox = new Mailbox<long>("consumer");
        var sent = new long[2];
        var counts = new long[2];
        long outOfOrder = 0;
        long overWindow = 0;
        long deepest = 0;

        var consumer = Scheduler.Spawn(Consume(), "consumer");
        Scheduler.Spawn(Produce(0), "producer 0");
        Scheduler.Spawn(Produce(1), "producer 1");
        Join(consumer);
        WaitForAll();

        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(perProducer, c));
        Assert.Equal(0, overWindow);
        Assert.InRange(deepest, 1, window);
        Assert.Equal(window, credits.Available);

        IEnumerable<Event> Produce(int producer)
        {
            for (var i = 0; i < perProducer; i++)
            {
                yield return credits.Acquire();
                inbox.Send(Encode(producer, i));
                Interlocked.Increment(ref sent[producer]);
            }
        }

        IEnumerable<Event> Consume()
        {
            for (long received = 1; received <= 2L * perProducer; received++)
            {
                var message = inbox.Recv();
                yield return message;

                // Acknowledged so far: received - 1. Sent counts lag the sends, so this is at most the real number in flight.
                var unacknowledged = Interlocked.Read(ref sent[0]) + Interlocked.Read(ref sent[1]) - (received - 1);
                deepest = Math.Max(deepest, inbox.Count + 1);
                if (unacknowledged > window || inbox.Count + 1 > window)
                {
                    overWindow++;
                }

                if (!NextInSequence(message.Value, counts))
                {
                    outOfOrder++;
                }
                credits.Release();
            }
        }
    }

    [Fact]
    public void CreditWindow_ProducerParked_OsThreadReleaseWakesIt()
    {
        var credits = new CreditWindow(2, "acks from outside");
        var acquired = 0;
        var producer = Scheduler.Spawn(AcquireThree(), "producer");
        WaitUntil(() => Volatile.Read(ref acquired) == 2 && credits.Available == 0, "the producer takes both credits");
        Assert.False(producer.IsCompleted);
        credits.Release();
        Join(producer);
        Assert.Equal(3, acquired);

        IEnumerable<Event> AcquireThree()
        {
            for (var i = 0; i < 3; i++)
            {
                yield return credits.Acquire();
                Interlocked.Increment(ref acquired);
            }
        }
    }

    [Fact]
    public void CreditWindow_ReleaseBeyondWindow_ThrowsNamingWindow_AndKeepsCount()
    {
        var credits = new CreditWindow(3, "orders");
        Assert.True(credits.TryAcquire());
        Assert.True(credits.TryAcquire());
        Assert.True(credits.TryAcquire());
        Assert.False(credits.TryAcquire());
        credits.Release(2);
        var error = Assert.Throws<InvalidOperationException>(() => credits.Release(2));
        Assert.Contains("'orders'", error.Message, StringComparison.Ordinal);
        Assert.Equal(2, credits.Available);
        Assert.Equal("count", Assert.Throws<ArgumentOutOfRangeException>(() => credits.Release(0)).ParamName);
        Assert.Equal("window", Assert.Throws<ArgumentOutOfRangeException>(() => new CreditWindow(0)).ParamName);
    }

    [Fact]
    public void CreditWindow_ProducerParkedWhenSchedulerDisposed_EndsAndItsCreditGoesToTheNext()
    {
        var credits = new CreditWindow(1, "shared");
        Assert.True(credits.TryAcquire());
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var stuck = other.Spawn(AcquireOne(), "stuck");
        WaitUntil(() => Probe.WaitingForCredit(credits) == 1, "the producer waits for a credit");
        other.Dispose();
        Assert.Throws<OperationCanceledException>(() => stuck.Wait(Timeout));

        // The disposed producer's place does not swallow the next credit.
        credits.Release();
        Run(AcquireOne());

        IEnumerable<Event> AcquireOne()
        {
            yield return credits.Acquire();
        }
    }
}
