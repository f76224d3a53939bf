using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    private const int MessagesPerSender = 400_000;

    [Fact]
    public void Recv_MessageAlreadyQueued_CompletesWithoutParking()
    {
        var inbox = new Mailbox<string>();
        inbox.Send("first");
        var received = new List<string>();
        Run(Receive(inbox, 1, received));
        Assert.Equal(["first"], received);
    }

    [Fact]
    public void Recv_EmptyMailbox_ParksUntilSendFromOsThread()
    {
        var inbox = new Mailbox<string>();
        var received = new List<string>();
        var receiver = Scheduler.Spawn(Receive(inbox, 2, received));
        WaitUntil(() => inbox.IsReceiverParked, "the receiver parks");
        inbox.Send("a");
        inbox.Send("b");
        Join(receiver);
        Assert.Equal(["a", "b"], received);
    }

    [Fact]
    public void Send_ManyProducers_OsAndGreen_EveryMessageOnceInPerSenderOrder()
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
            Scheduler.Spawn(GreenSender(inbox, osSenders + s), $"green sender {s}");
        }

        var threads = Enumerable.Range(0, osSenders).Select(s => new Thread(() =>
        {
            for (var i = 0; i < MessagesPerSender; i++)
            {
                inbox.Send(Encode(s, i));
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => Assert.True(t.Join(Timeout)));
        Join(consumer);

        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(MessagesPerSender, c));

        IEnumerable<Event> Consume()
        {
            for (long received = 0; received < (long)senders * MessagesPerSender; received++)
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

    [Fact]
    public void Recv_SecondLiveReceiver_FaultsNamingMailboxAndThread()
    {
        var inbox = new Mailbox<int>("shared inbox");
        var first = Scheduler.Spawn(Receive(inbox, 1, []), "first");
        WaitUntil(() => inbox.IsReceiverParked, "the first receiver parks");
        var second = Scheduler.Spawn(Receive(inbox, 1, []), "second");

        var error = Assert.Throws<InvalidOperationException>(() => second.Wait(Timeout));
        Assert.Contains("'shared inbox'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'second'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'first'", error.Message, StringComparison.Ordinal);

        inbox.Send(1);
        Join(first);
    }

    [Fact]
    public void Recv_AfterReceiverExited_AnotherThreadTakesOver()
    {
        var inbox = new Mailbox<int>();
        var received = new List<string>();
        inbox.Send(1);
        inbox.Send(2);
        Run(Receive(inbox, 1, received));
        Run(Receive(inbox, 1, received));
        Assert.Equal(["1", "2"], received);
    }

    [Fact]
    public void Recv_ParkedReceivers_100000_AllWokenAndCompleted()
    {
        const int count = 100_000;
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

    [Fact]
    public void Send_RacingReceiversAboutToPark_NoWakeUpIsLost()
    {
        // Each round, receivers park (or are about to) while OS threads send; a lost wake-up leaves a receiver
        // parked with a message in its mailbox, so WaitForAll times out.
        const int rounds = 200;
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

    [Fact]
    public void Send_OsSendersAndGreenRelaysIntoOneSink_ManyRounds_EveryMessageOnceInOrder()
    {
        // Receivers that park and are woken from other workers over and over: a receiver resumed on one worker while
        // another still finishes its park would run twice, duplicating or inventing messages.
        const int rounds = 20;
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

    [Fact]
    public void Recv_ReceiverStoppedByDisposal_AnotherSchedulersThreadTakesTheMailboxOver()
    {
        var inbox = new Mailbox<int>("handed over");
        var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var first = other.Spawn(Receive(inbox, 1, []), "first");
        WaitUntil(() => inbox.IsReceiverParked, "the first receiver parks");
        other.Dispose();
        Assert.Throws<OperationCanceledException>(() => first.Wait(Timeout));

        var received = new List<string>();
        var second = Scheduler.Spawn(Receive(inbox, 2, received), "second");
        inbox.Send(7);
        inbox.Send(8);
        Join(second);
        Assert.Equal(["7", "8"], received);
    }

    [Fact]
    public void Mailbox_ToStringAndDebuggerDisplay_NameTheMailbox()
    {
        var inbox = new Mailbox<int>("orders");
        Assert.Equal("Mailbox<Int32> 'orders'", inbox.ToString());
        Assert.Equal("Recv() on Mailbox<Int32> 'orders'", inbox.Recv().ToString());
        Assert.Same(inbox.Recv(), inbox.Recv());
    }

    private static long Encode(int sender, int sequence) => ((long)sender << 32) | (uint)sequence;

    /// <summary>Counts a message made by <see cref="Encode"/> for its sender; false if it is not that sender's next one.</summary>
    private static bool NextInSequence(long message, long[] counts)
    {
        var sender = (int)(message >> 32);
        return (int)message == counts[sender]++;
    }

    private static IEnumerable<Event> GreenSender(Mailbox<long> inbox, int sender, int count = MessagesPerSender)
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

    private static IEnumerable<Event> Receive<T>(Mailbox<T> inbox, int count, List<string> received)
    {
        for (var i = 0; i < count; i++)
        {
            var message = inbox.Recv();
            yield return message;
            lock (received)
            {
                received.Add(message.Value!.ToString()!);
            }
        }
    }
}
