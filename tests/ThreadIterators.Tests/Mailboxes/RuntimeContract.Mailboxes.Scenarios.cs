using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The mailbox tests that also run long: each body takes its size, RuntimeContract.Mailboxes.cs runs it small and
// tests/ThreadIterators.StressTests, which compiles this file too, runs it at stress sizes.
public abstract partial class RuntimeContract
{
    /// <summary>Two OS threads and two green threads each send <paramref name="messagesPerSender"/> numbered messages to one receiver.</summary>
    private void SendManyProducersOsAndGreen(int messagesPerSender)
    {
        const int osSenders = 2;
        const int greenSenders = 2;
        const int senders = osSenders + greenSenders;
        var inbox = new Mailbox<long>();
        var counts = new long[senders];
        var outOfOrder = 0L;
        var consumer = Scheduler.Spawn(Consume(), "consumer");
        for (var s = 0; s < greenSenders; s++)
        {
            Scheduler.Spawn(GreenSender(inbox, osSenders + s, messagesPerSender), $"green sender {s}");
        }

        var threads = Enumerable.Range(0, osSenders).Select(s => new Thread(() =>
        {
            for (var i = 0; i < messagesPerSender; i++)
            {
                inbox.Send(Encode(s, i));
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => Assert.True(t.Join(Timeout)));
        Join(consumer);

        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(messagesPerSender, c));

        IEnumerable<Event> Consume()
        {
            for (long received = 0; received < (long)senders * messagesPerSender; received++)
            {
                var message = inbox.Recv();
                yield return message;
                var sender = (int)(message.Value >> 32);
                var sequence = (int)message.Value;
                if (sequence != counts[sender])
                {
                    outOfOrder++;
                }

                counts[sender]++;
            }
        }
    }

    /// <summary>Parks <paramref name="count"/> receivers, each on its own mailbox, then wakes each with one message.</summary>
    private void RecvParkedReceivers(int count)
    {
        var inboxes = new Mailbox<int>[count];
        var sum = 0L;
        for (var i = 0; i < count; i++)
        {
            inboxes[i] = new Mailbox<int>();
            Scheduler.Spawn(AddOne(inboxes[i]));
        }

        WaitUntil(() => inboxes.All(m => m.IsReceiverParked), "all receivers park");
        for (var i = 0; i < count; i++)
        {
            inboxes[i].Send(i);
        }

        WaitForAll();
        Assert.Equal((long)count * (count - 1) / 2, Interlocked.Read(ref sum));

        IEnumerable<Event> AddOne(Mailbox<int> inbox)
        {
            var message = inbox.Recv();
            yield return message;
            Interlocked.Add(ref sum, message.Value);
        }
    }

    /// <summary>For <paramref name="rounds"/> rounds, two OS threads send to 64 receivers as they park.</summary>
    private void SendRacingReceiversAboutToPark(int rounds)
    {
        // Each round, receivers park (or are about to) while OS threads send; a lost wake-up leaves a receiver
        // parked with a message in its mailbox, so WaitForAll times out.
        const int receivers = 64;
        const int messagesEach = 8;
        var total = 0L;
        using var go = new Barrier(3);
        for (var round = 0; round < rounds; round++)
        {
            var inboxes = Enumerable.Range(0, receivers).Select(_ => new Mailbox<int>()).ToArray();
            foreach (var inbox in inboxes)
            {
                Scheduler.Spawn(Sum(inbox));
            }

            var senders = Enumerable.Range(0, 2).Select(s => new Thread(() =>
            {
                go.SignalAndWait();
                for (var m = s; m < messagesEach; m += 2)
                {
                    foreach (var inbox in inboxes)
                    {
                        inbox.Send(1);
                    }
                }
            })).ToList();
            senders.ForEach(t => t.Start());
            go.SignalAndWait();
            senders.ForEach(t => Assert.True(t.Join(Timeout)));
            WaitForAll();
        }

        Assert.Equal((long)rounds * receivers * messagesEach, total);

        IEnumerable<Event> Sum(Mailbox<int> inbox)
        {
            for (var i = 0; i < messagesEach; i++)
            {
                var message = inbox.Recv();
                yield return message;
                Interlocked.Add(ref total, message.Value);
            }
        }
    }

    /// <summary>For <paramref name="rounds"/> rounds, three OS senders and three green relays send into one sink.</summary>
    private void SendOsSendersAndGreenRelaysIntoOneSink(int rounds)
    {
        // Receivers that park and are woken from other workers over and over: a receiver resumed on one worker while
        // another still finishes its park would run twice, duplicating or inventing messages.
        const int perSender = 2_000;
        const int relays = 3;
        const int osSenders = 3;
        for (var round = 0; round < rounds; round++)
        {
            var sink = new Mailbox<long>("sink");
            var next = new long[relays + osSenders];
            var wrong = 0;
            var consumer = Scheduler.Spawn(Sink(), "sink");
            for (var r = 0; r < relays; r++)
            {
                var relayInbox = new Mailbox<long>($"relay {r}");
                Scheduler.Spawn(Relay(relayInbox), $"relay {r}");
                Scheduler.Spawn(GreenSender(relayInbox, r, perSender), $"sender {r}");
            }

            var threads = Enumerable.Range(relays, osSenders).Select(sender => new Thread(() =>
            {
                for (var i = 0; i < perSender; i++)
                {
                    sink.Send(Encode(sender, i));
                    if (i % 64 == 0)
                    {
                        Thread.Yield();
                    }
                }
            })).ToList();
            threads.ForEach(t => t.Start());
            threads.ForEach(t => Assert.True(t.Join(Timeout)));
            Join(consumer);
            WaitForAll();
            Assert.Equal(0, wrong);
            Assert.All(next, n => Assert.Equal(perSender, n));

            IEnumerable<Event> Sink()
            {
                var message = sink.Recv();
                for (var i = 0; i < (relays + osSenders) * perSender; i++)
                {
                    yield return message;
                    var sender = (int)(message.Value >> 32);
                    if ((int)message.Value != next[sender]++)
                    {
                        wrong++;
                    }
                }
            }

            IEnumerable<Event> Relay(Mailbox<long> inbox)
            {
                var message = inbox.Recv();
                for (var i = 0; i < perSender; i++)
                {
                    yield return message;
                    sink.Send(message.Value);
                    if (i % 97 == 0)
                    {
                        yield return Event.Yield;
                    }
                }
            }
        }
    }

    private static long Encode(int sender, int sequence) => ((long)sender << 32) | (uint)sequence;

    /// <summary>Counts a message made by <see cref="Encode"/> for its sender; false if it is not that sender's next one.</summary>
    private static bool NextInSequence(long message, long[] counts)
    {
        var sender = (int)(message >> 32);
        return (int)message == counts[sender]++;
    }

    private static IEnumerable<Event> GreenSender(Mailbox<long> inbox, int sender, int count)
    {
        for (var i = 0; i < count; i++)
        {
            inbox.Send(Encode(sender, i));
            if (i % 4096 == 0)
            {
                yield return Event.Yield;
            }
        }
    }
}
