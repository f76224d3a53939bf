using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The completion tests that also run long: each body takes its size, RuntimeContract.Completion.cs runs it small and
// tests/ThreadIterators.StressTests, which compiles this file too, runs it at stress sizes.
public abstract partial class RuntimeContract
{
    /// <summary>
    /// <paramref name="rounds"/> times, five senders send numbered messages into a new mailbox (a
    /// <see cref="SharedMailbox{T}"/> with three receivers if <paramref name="shared"/>; unbounded if
    /// <paramref name="capacity"/> is 0) until one is refused, while the test completes the mailbox once
    /// <paramref name="before"/> messages have been received: an OS thread with <c>Send</c>, one with <c>TrySend</c>,
    /// an awaited <c>SendAsync</c>, and two green threads (<c>Put</c> into a bounded mailbox, <c>Send</c> into an
    /// unbounded one). Every send that returned must be received exactly once before the end (in its sender's order,
    /// by a mailbox's one receiver), every sender must have been refused, and no refused message may arrive: counted
    /// per sender, nothing is lost or made up.
    /// </summary>
    private async Task CompleteRacingSenders(bool shared, int capacity, int before, int rounds)
    {
        for (var round = 0; round < rounds; round++)
        {
            await CompleteRacingSendersOnce(shared, capacity, before);
        }
    }

    private async Task CompleteRacingSendersOnce(bool shared, int capacity, int before)
    {
        const int osSenders = 3;
        const int greenSenders = 2;
        const int senders = osSenders + greenSenders;
        IMessageTarget<long> target = (shared, capacity) switch
        {
            (false, 0) => new Mailbox<long>("raced"),
            (false, _) => new Mailbox<long>(capacity, "raced"),
            (true, 0) => new SharedMailbox<long>("raced"),
            _ => new SharedMailbox<long>(capacity, "raced"),
        };
        var sent = new long[senders];
        var refused = new int[senders];
        var received = Enumerable.Range(0, senders).Select(_ => new ConcurrentQueue<int>()).ToArray();
        long receivedCount = 0;
        var ends = 0;
        var receivers = Enumerable.Range(0, shared ? 3 : 1)
            .Select(r => Scheduler.Spawn(shared ? ReceiveShared() : ReceiveOwn(), $"receiver {r}"))
            .ToList();
        var green = Enumerable.Range(osSenders, greenSenders).Select(s => Scheduler.Spawn(SendGreen(s), $"green sender {s}")).ToList();
        var os = new[]
        {
            Task.Factory.StartNew(() => SendUntilRefused(0), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default),
            Task.Factory.StartNew(() => TrySendUntilRefused(1), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default),
            Task.Run(() => SendAsyncUntilRefused(2)),
        };

        WaitUntil(() => Interlocked.Read(ref receivedCount) >= before, $"the receivers take {before} messages");
        Complete(target);
        await Task.WhenAll(os).WaitAsync(Timeout);
        WaitForAll();

        Assert.Equal(receivers.Count, ends);
        for (var g = 0; g < greenSenders; g++)
        {
            // Refused, a green sender ends with the ChannelClosedException (a put may be refused as it resumes).
            refused[osSenders + g] = green[g].Exception is ChannelClosedException ? 1 : 0;
        }

        for (var s = 0; s < senders; s++)
        {
            Assert.True(refused[s] == 1, $"sender {s} was never refused");
            var got = shared ? received[s].OrderBy(m => m).ToArray() : [.. received[s]];
            Assert.True(
                got.SequenceEqual(Enumerable.Range(0, (int)sent[s])),
                $"sender {s} sent {sent[s]} messages before it was refused, and {got.Length} arrived (first out of place: {got.Where((m, i) => m != i).Select(m => (int?)m).FirstOrDefault()})");
        }

        Assert.Equal(sent.Sum(), Interlocked.Read(ref receivedCount));

        void Record(long message)
        {
            received[(int)(message >> 32)].Enqueue((int)message);
            Interlocked.Increment(ref receivedCount);
        }

        IEnumerable<Event> ReceiveOwn()
        {
            var message = ((Mailbox<long>)target).Recv();
            yield return message;
            while (!message.IsCompleted)
            {
                Record(message.Value);
                yield return message;
            }

            Interlocked.Increment(ref ends);
        }

        IEnumerable<Event> ReceiveShared()
        {
            var message = ((SharedMailbox<long>)target).CreateReceiveEvent();
            yield return message;
            while (!message.IsCompleted)
            {
                Record(message.Value);
                yield return message;
            }

            Interlocked.Increment(ref ends);
        }

        void SendUntilRefused(int sender)
        {
            try
            {
                for (var i = 0; ; i++)
                {
                    target.Send(Encode(sender, i));
                    Volatile.Write(ref sent[sender], i + 1);
                    if (i % 64 == 0)
                    {
                        Thread.Yield();
                    }
                }
            }
            catch (ChannelClosedException)
            {
                refused[sender] = 1;
            }
        }

        void TrySendUntilRefused(int sender)
        {
            for (var i = 0; ;)
            {
                if (target.TrySend(Encode(sender, i)))
                {
                    Volatile.Write(ref sent[sender], ++i);
                }
                else if (IsCompleted(target))
                {
                    // Full and then completed, or completed: either way this message was not sent.
                    refused[sender] = 1;
                    return;
                }

                if (i % 64 == 0)
                {
                    Thread.Yield();
                }
            }
        }

        async Task SendAsyncUntilRefused(int sender)
        {
            try
            {
                for (var i = 0; ; i++)
                {
                    await target.SendAsync(Encode(sender, i));
                    Volatile.Write(ref sent[sender], i + 1);
                    if (i % 64 == 0)
                    {
                        await Task.Yield();
                    }
                }
            }
            catch (ChannelClosedException)
            {
                refused[sender] = 1;
            }
        }

        IEnumerable<Event> SendGreen(int sender)
        {
            for (var i = 0; ; i++)
            {
                if (capacity > 0)
                {
                    yield return target.Put(Encode(sender, i));
                    Volatile.Write(ref sent[sender], i + 1);
                }
                else
                {
                    target.Send(Encode(sender, i));
                    Volatile.Write(ref sent[sender], i + 1);
                    if (i % 16 == 0)
                    {
                        yield return Event.Yield;
                    }
                }
            }
        }
    }

    private static void Complete<T>(IMessageTarget<T> target)
    {
        if (target is Mailbox<T> mailbox)
        {
            mailbox.Complete();
        }
        else
        {
            ((SharedMailbox<T>)target).Complete();
        }
    }

    private static bool IsCompleted<T>(IMessageTarget<T> target) =>
        target is Mailbox<T> mailbox ? mailbox.IsCompleted : ((SharedMailbox<T>)target).IsCompleted;
}
