using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The bounded-mailbox tests that also run long: each body takes its size, RuntimeContract.BoundedMailboxes.cs runs it
// small and tests/ThreadIterators.StressTests, which compiles this file too, runs it at stress sizes.
public abstract partial class RuntimeContract
{
    /// <summary>
    /// Two green threads, a blocked OS thread and <c>SendAsync</c> each send <paramref name="perSender"/> numbered
    /// messages into a mailbox of <paramref name="capacity"/> (which grows its slots on the way: 4, 16, ...).
    /// </summary>
    private async Task BoundedGreenOsAndAsyncSenders(int perSender, int capacity = 16)
    {
        const int green = 2;
        const int senders = green + 2;
        var inbox = new Mailbox<long>(capacity, "bounded");
        var completed = new long[senders];
        var counts = new long[senders];
        long outOfOrder = 0;
        long deepest = 0;
        long overCapacity = 0;

        var consumer = Scheduler.Spawn(Consume(), "consumer");
        for (var s = 0; s < green; s++)
        {
            Scheduler.Spawn(PutNumbered(inbox, s, perSender, completed), $"green sender {s}");
        }

        await SendFromOsThreads(inbox, green, perSender, completed);
        Join(consumer);
        WaitForAll();

        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(perSender, c));
        Assert.Equal(0, overCapacity);
        Assert.InRange(deepest, 1, capacity);

        IEnumerable<Event> Consume()
        {
            for (long received = 1; received <= (long)senders * perSender; received++)
            {
                var message = inbox.Recv();
                yield return message;

                // Sends completed can only be fewer than messages appended; so, with every take counted here, this
                // depth is at most the real one, which the capacity bounds.
                var depth = completed.Sum(c => Interlocked.Read(ref c)) - received;
                deepest = Math.Max(deepest, inbox.Count);
                if (depth > capacity || inbox.Count > capacity)
                {
                    overCapacity++;
                }

                if (!NextInSequence(message.Value, counts))
                {
                    outOfOrder++;
                }
            }
        }
    }

    /// <summary>For <paramref name="rounds"/> rounds, a producer puts two messages into one slot and the receiver takes one, then joins it.</summary>
    private void PutReceiverTakesOneThenJoinsTheProducer(int rounds)
    {
        // The receiver never takes or parks on the mailbox again, so only the take that freed the slot can release
        // the producer waiting for it.
        for (var round = 0; round < rounds; round++)
        {
            var inbox = new Mailbox<int>(1, "one slot") { OutlivesReceiver = true };
            var producer = Scheduler.Spawn(PutTwo(inbox), "producer");
            var receiver = Scheduler.Spawn(TakeOneThenJoin(inbox, producer), "receiver");
            Join(receiver);
            Join(producer);
            Assert.Equal(1, inbox.Count);
        }

        static IEnumerable<Event> PutTwo(Mailbox<int> inbox)
        {
            yield return inbox.Put(1);
            yield return inbox.Put(2);
        }

        static IEnumerable<Event> TakeOneThenJoin(Mailbox<int> inbox, GreenThread producer)
        {
            yield return inbox.Recv();
            yield return producer.Exited;
        }
    }

    /// <summary>A green sender: yields <c>Put</c> for <paramref name="count"/> numbered messages, counting each completed send if asked.</summary>
    private static IEnumerable<Event> PutNumbered(IMessageTarget<long> target, int sender, int count, long[]? completed = null)
    {
        for (var i = 0; i < count; i++)
        {
            yield return target.Put(Encode(sender, i));
            if (completed is not null)
            {
                Interlocked.Increment(ref completed[sender]);
            }
        }
    }

    /// <summary>
    /// Sends <paramref name="perSender"/> messages as sender <paramref name="first"/> from a blocked OS thread and as
    /// sender <paramref name="first"/> + 1 with awaited <c>SendAsync</c>, counting each completed send, and waits for both.
    /// </summary>
    private static async Task SendFromOsThreads(IMessageTarget<long> target, int first, int perSender, long[] completed)
    {
        var blocking = new Thread(() =>
        {
            for (var i = 0; i < perSender; i++)
            {
                target.Send(Encode(first, i));
                Interlocked.Increment(ref completed[first]);
            }
        });
        blocking.Start();
        var asynchronous = Task.Run(async () =>
        {
            for (var i = 0; i < perSender; i++)
            {
                await target.SendAsync(Encode(first + 1, i));
                Interlocked.Increment(ref completed[first + 1]);
            }
        });

        Assert.True(blocking.Join(Timeout), "the blocking sender finished");
        await asynchronous.WaitAsync(Timeout);
    }
}
