using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The shared-mailbox tests that also run long: each body takes its size, RuntimeContract.SharedMailbox.cs runs it small
// and tests/ThreadIterators.StressTests, which compiles this file too, runs it at stress sizes.
public abstract partial class RuntimeContract
{
    /// <summary>
    /// Two green threads, a blocked OS thread and <c>SendAsync</c> each send <paramref name="perSender"/> numbered
    /// messages to three receivers sharing one mailbox, unbounded if <paramref name="capacity"/> is 0.
    /// </summary>
    private async Task SharedMailboxManySendersThreeReceivers(int capacity, int perSender)
    {
        const int receivers = 3;
        const int green = 2;
        const int senders = green + 2;
        var shared = capacity > 0 ? new SharedMailbox<long>(capacity, "work") : new SharedMailbox<long>("work");
        var seen = new int[senders * perSender];
        var completed = new long[senders];
        long received = 0;
        long overCapacity = 0;
        long stop = -1;

        for (var r = 0; r < receivers; r++)
        {
            Scheduler.Spawn(Consume(), $"receiver {r}");
        }

        for (var s = 0; s < green; s++)
        {
            Scheduler.Spawn(PutNumbered(shared, s, perSender, completed), $"green sender {s}");
        }

        await SendFromOsThreads(shared, green, perSender, completed);
        WaitUntil(() => Scheduler.LiveThreadCount == receivers, "the green senders finish");
        for (var r = 0; r < receivers; r++)
        {
            shared.Send(stop);
        }

        WaitForAll();
        Assert.Equal((long)senders * perSender, Interlocked.Read(ref received));
        Assert.All(seen, s => Assert.Equal(1, s));
        Assert.Equal(0, overCapacity);
        Assert.Equal(0, shared.Count);

        IEnumerable<Event> Consume()
        {
            var message = shared.CreateReceiveEvent();
            while (true)
            {
                yield return message;
                if (message.Value == stop)
                {
                    yield break;
                }

                Interlocked.Increment(ref seen[((int)(message.Value >> 32) * perSender) + (int)message.Value]);
                Interlocked.Increment(ref received);

                // Completed sends, read first, are at most the appends then; the takes counted after that lag the
                // real takes by at most one per receiver. So this exceeds the capacity only if the mailbox did.
                var sent = completed.Sum(c => Interlocked.Read(ref c));
                if (capacity > 0 && (shared.Count > capacity || sent - Interlocked.Read(ref received) > capacity + receivers))
                {
                    Interlocked.Increment(ref overCapacity);
                }
            }
        }
    }

    /// <summary>Two green threads each put <paramref name="perSender"/> numbered messages into a shared mailbox of 4 with one receiver.</summary>
    private void SharedMailboxBoundedOneReceiverTwoGreenSenders(int perSender)
    {
        var shared = new SharedMailbox<long>(4, "ordered");
        var counts = new long[2];
        long outOfOrder = 0;
        var receiver = Scheduler.Spawn(Consume(), "receiver");
        Scheduler.Spawn(PutNumbered(shared, 0, perSender), "sender 0");
        Scheduler.Spawn(PutNumbered(shared, 1, perSender), "sender 1");
        Join(receiver);
        WaitForAll();
        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(perSender, c));

        IEnumerable<Event> Consume()
        {
            var message = shared.CreateReceiveEvent();
            for (var received = 0; received < 2 * perSender; received++)
            {
                yield return message;
                if (!NextInSequence(message.Value, counts))
                {
                    outOfOrder++;
                }
            }
        }
    }
}
