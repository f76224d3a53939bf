using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The credit-window tests that also run long: each body takes its size, RuntimeContract.CreditWindow.cs runs it small
// and tests/ThreadIterators.StressTests, which compiles this file too, runs it at stress sizes.
public abstract partial class RuntimeContract
{
    /// <summary>Two green producers each send <paramref name="perProducer"/> numbered messages to one consumer under one window of 8.</summary>
    private void CreditWindowTwoProducersOneWindow(int perProducer)
    {
        const int window = 8;
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
}
