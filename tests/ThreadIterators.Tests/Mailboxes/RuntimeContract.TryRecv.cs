using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Fact]
    public void TryRecv_EmptyMailbox_ReturnsFalseWithoutParking_AndBindsTheReceiver()
    {
        var inbox = new Mailbox<int>("idle");
        GreenThread? receiverSeen = null;
        var polls = 0;
        var thread = Run(Poll(), "poller");
        Assert.Same(thread, receiverSeen);
        Assert.Equal(3, polls);

        IEnumerable<Event> Poll()
        {
            // Never had a message (no segment yet), then a drained one, after a turn given up.
            Assert.False(inbox.TryRecv(out var none));
            Assert.Equal(0, none);
            receiverSeen = inbox.Receiver;
            polls++;
            yield return Event.Yield;
            inbox.Send(5);
            Assert.True(inbox.TryRecv(out var five));
            Assert.Equal(5, five);
            polls++;
            Assert.False(inbox.TryRecv(out _));
            polls++;
        }
    }

    [Fact]
    public void TryRecv_MessagesQueued_TakesThemInOrder_MixedWithRecv()
    {
        var inbox = new Mailbox<string>("mixed");
        foreach (var word in new[] { "a", "b", "c", "d", "e" })
        {
            inbox.Send(word);
        }

        var received = new List<string>();
        var thread = Scheduler.Spawn(TakeMixed(), "mixed receiver");
        WaitUntil(() => inbox.IsReceiverParked, "the receiver drains the mailbox and parks");
        inbox.Send("f");
        Join(thread);
        Assert.Equal(["a", "b", "c", "d", "e", "f"], received);
        Assert.Equal(0, inbox.Count);

        IEnumerable<Event> TakeMixed()
        {
            Assert.True(inbox.TryRecv(out var first));
            received.Add(first);
            var message = inbox.Recv();
            yield return message;
            received.Add(message.Value);
            while (inbox.TryRecv(out var next))
            {
                received.Add(next);
            }

            // Drained: the next receive parks until the test sends, and a TryRecv that finds nothing leaves Value alone.
            yield return message;
            received.Add(message.Value);
            Assert.False(inbox.TryRecv(out _));
            Assert.Equal("f", message.Value);
        }
    }

    [Fact]
    public void TryRecv_DrainedMailbox_NextRecvParksAndIsWokenBySend()
    {
        var inbox = new Mailbox<int>("drained");
        inbox.Send(1);
        var received = new List<int>();
        var thread = Scheduler.Spawn(DrainThenRecv(), "drainer");
        WaitUntil(() => inbox.IsReceiverParked, "the receiver parks after draining");
        inbox.Send(2);
        Join(thread);
        Assert.Equal([1, 2], received);

        IEnumerable<Event> DrainThenRecv()
        {
            while (inbox.TryRecv(out var early))
            {
                received.Add(early);
            }

            var message = inbox.Recv();
            yield return message;
            received.Add(message.Value);
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(64)]
    public void TryRecv_BoundedFull_ReleasesWaitingSenders_EveryMessageOnceInPerSenderOrder(int capacity)
    {
        // A green producer parked on Put and an OS thread blocked in Send wait on a full mailbox; a receiver that
        // only ever calls TryRecv must make room for both, or it never gets their messages.
        const int perSender = 500;
        var inbox = new Mailbox<long>(capacity, "bounded");
        for (var i = 0; i < capacity; i++)
        {
            Assert.True(inbox.TrySend(Encode(2, i)));
        }

        var counts = new long[3];
        var outOfOrder = 0;
        var completed = new long[2];
        var green = Scheduler.Spawn(PutNumbered(inbox, 0, perSender, completed), "green producer");
        var os = new Thread(() =>
        {
            for (var i = 0; i < perSender; i++)
            {
                inbox.Send(Encode(1, i));
                Interlocked.Increment(ref completed[1]);
            }
        });
        os.Start();
        WaitUntil(() => Probe.WaitingSenders(inbox) == 2, "both senders wait for room");

        var receiver = Scheduler.Spawn(PollUntilAllTaken(), "poller");
        Join(receiver);
        Join(green);
        Assert.True(os.Join(Timeout));
        Assert.Equal(0, outOfOrder);
        Assert.Equal([perSender, perSender, capacity], counts);
        Assert.Equal([perSender, perSender], completed);

        IEnumerable<Event> PollUntilAllTaken()
        {
            var total = (2L * perSender) + capacity;
            for (long taken = 0; taken < total;)
            {
                if (!inbox.TryRecv(out var message))
                {
                    yield return Event.Yield;
                    continue;
                }

                taken++;
                if (!NextInSequence(message, counts))
                {
                    outOfOrder++;
                }
            }
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(16)]
    public void TryRecv_RacingOsSenders_LoopOfTryRecvAndRecv_EveryMessageOnceInPerSenderOrder(int capacity)
    {
        const int senders = 3;
        const int perSender = 20_000;
        var inbox = capacity == 0 ? new Mailbox<long>("raced") : new Mailbox<long>(capacity, "raced");
        var counts = new long[senders];
        var outOfOrder = 0;
        var byTryRecv = 0;
        var byRecv = 0;
        var receiver = Scheduler.Spawn(TakeAll(), "receiver");
        var threads = Enumerable.Range(0, senders).Select(s => new Thread(() =>
        {
            for (var i = 0; i < perSender; i++)
            {
                inbox.Send(Encode(s, i));
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => Assert.True(t.Join(Timeout)));
        Join(receiver);

        Assert.Equal(0, outOfOrder);
        Assert.All(counts, c => Assert.Equal(perSender, c));
        Assert.Equal(senders * perSender, byTryRecv + byRecv);

        IEnumerable<Event> TakeAll()
        {
            var message = inbox.Recv();
            while (byTryRecv + byRecv < senders * perSender)
            {
                if (inbox.TryRecv(out var taken))
                {
                    byTryRecv++;
                    Record(taken);
                    continue;
                }

                // Empty for the moment: park until the next message.
                yield return message;
                byRecv++;
                Record(message.Value);
            }
        }

        void Record(long message)
        {
            if (!NextInSequence(message, counts))
            {
                outOfOrder++;
            }
        }
    }

    [Fact]
    public void TryRecv_OutsideAnyGreenThread_ThrowsNamingTheMailboxAndTheOsThread()
    {
        var inbox = new Mailbox<int>("orders");
        inbox.Send(1);
        var error = Assert.Throws<InvalidOperationException>(() => inbox.TryRecv(out _));
        Assert.Contains("Mailbox<Int32> 'orders'", error.Message, StringComparison.Ordinal);
        Assert.Contains("outside any green thread", error.Message, StringComparison.Ordinal);
        Assert.StartsWith("OS thread ", error.Message, StringComparison.Ordinal);

        Exception? fromNamed = null;
        var named = new Thread(() => fromNamed = Record.Exception(() => inbox.TryRecv(out _))) { Name = "poller" };
        named.Start();
        Assert.True(named.Join(Timeout));
        Assert.Contains("OS thread 'poller' called TryRecv() on Mailbox<Int32> 'orders'", Assert.IsType<InvalidOperationException>(fromNamed).Message, StringComparison.Ordinal);

        // Nothing was taken, and nobody was bound.
        Assert.Equal(1, inbox.Count);
        Assert.Null(inbox.Receiver);
    }

    [Fact]
    public void TryRecv_ByANonReceiverWhileTheReceiverLives_ThrowsAsRecvWould()
    {
        var inbox = new Mailbox<int>("taken");
        var owner = Scheduler.Spawn(Receive(inbox, 1, []), "owner");
        WaitUntil(() => inbox.IsReceiverParked, "the owner parks");
        string? tryRecvMessage = null;
        var intruder = Scheduler.Spawn(TryThenRecv(), "intruder");

        // TryRecv throws into the body, which catches it; Recv then faults the thread with its own message.
        var recvError = Assert.Throws<InvalidOperationException>(() => intruder.Wait(Timeout));
        Assert.Equal(recvError.Message, tryRecvMessage);
        Assert.Contains("'intruder'", recvError.Message, StringComparison.Ordinal);
        Assert.Contains("'owner'", recvError.Message, StringComparison.Ordinal);
        Assert.Contains("Mailbox<Int32> 'taken'", recvError.Message, StringComparison.Ordinal);

        inbox.Send(1);
        Join(owner);
        Assert.Same(owner, inbox.Receiver);

        IEnumerable<Event> TryThenRecv()
        {
            try
            {
                inbox.TryRecv(out _);
            }
            catch (InvalidOperationException error)
            {
                tryRecvMessage = error.Message;
            }

            yield return inbox.Recv();
        }
    }

    [Fact]
    public void TryRecv_ByAnotherSchedulersThreadWithTheReceiversId_ThrowsAsRecvWould()
    {
        // Ids are unique within a scheduler only: the first thread of each scheduler is #1. The receiver is told by
        // its id on its worker, so the scheduler must be told too.
        var inbox = new Mailbox<int>("first come");
        using var other = new Scheduler(new SchedulerOptions { WorkerCount = WorkerCount, Policy = Policy });
        var owner = other.Spawn(Receive(inbox, 1, []), "owner");
        WaitUntil(() => inbox.IsReceiverParked, "the owner parks");
        Exception? error = null;
        var namesake = Scheduler.Spawn(TryOnce(), "namesake");
        Join(namesake);
        Assert.Equal(owner.Id, namesake.Id);
        Assert.Contains("'namesake' cannot receive from Mailbox<Int32> 'first come'", Assert.IsType<InvalidOperationException>(error).Message, StringComparison.Ordinal);

        inbox.Send(1);
        Assert.True(owner.Wait(Timeout));

        IEnumerable<Event> TryOnce()
        {
            error = Record.Exception(() => inbox.TryRecv(out _));
            yield break;
        }
    }

    [Fact]
    public void TryRecv_AfterTheReceiverEnded_AnotherThreadTakesOver()
    {
        var inbox = new Mailbox<int>("handed on") { OutlivesReceiver = true };
        inbox.Send(1);
        inbox.Send(2);
        var first = Run(Receive(inbox, 1, []), "first");
        var taken = 0;
        var second = Run(TakeOne(), "second");
        Assert.Equal(2, taken);
        Assert.Same(second, inbox.Receiver);
        Assert.NotSame(first, inbox.Receiver);

        IEnumerable<Event> TakeOne()
        {
            Assert.True(inbox.TryRecv(out taken));
            yield break;
        }
    }

    [Fact]
    public void SharedMailbox_TryRecv_FromPlainCode_TakesInOrderAndReleasesABlockedSender()
    {
        var jobs = new SharedMailbox<int>(2, "jobs");
        Assert.False(jobs.TryRecv(out _));
        const int total = 50;
        var sender = new Thread(() =>
        {
            for (var i = 0; i < total; i++)
            {
                jobs.Send(i);
            }
        });
        sender.Start();

        var taken = new List<int>();
        Waiting.Until(
            () =>
            {
                while (jobs.TryRecv(out var job))
                {
                    taken.Add(job);
                }

                return taken.Count == total;
            },
            () => $"every job is taken (got {taken.Count})");
        Assert.True(sender.Join(Timeout));
        Assert.Equal(Enumerable.Range(0, total), taken);
        Assert.False(jobs.TryRecv(out _));
    }

    [Fact]
    public void SharedMailbox_TryRecvPollerAlongsideParkedReceivers_EveryMessageExactlyOnce()
    {
        const int senders = 2;
        const int perSender = 5_000;
        const int consumers = 3;
        var jobs = new SharedMailbox<long>(8, "shared jobs");
        var counts = new int[senders * perSender];
        var byPoller = 0;
        var threads = new List<GreenThread>
        {
            Scheduler.Spawn(Park(), "parked receiver 0"),
            Scheduler.Spawn(Park(), "parked receiver 1"),
            Scheduler.Spawn(Poll(), "poller"),
        };
        var producers = Enumerable.Range(0, senders).Select(s => new Thread(() =>
        {
            for (var i = 0; i < perSender; i++)
            {
                jobs.Send((s * perSender) + i);
            }
        })).ToList();
        producers.ForEach(t => t.Start());
        producers.ForEach(t => Assert.True(t.Join(Timeout)));

        // One end marker per consumer, after every job: each consumer stops at the first it takes.
        for (var c = 0; c < consumers; c++)
        {
            jobs.Send(-1);
        }

        threads.ForEach(Join);
        Assert.All(counts, c => Assert.Equal(1, c));
        Assert.InRange(byPoller, 0, senders * perSender);

        IEnumerable<Event> Park()
        {
            var receive = jobs.CreateReceiveEvent();
            while (true)
            {
                yield return receive;
                if (receive.Value < 0)
                {
                    yield break;
                }

                Interlocked.Increment(ref counts[receive.Value]);
            }
        }

        IEnumerable<Event> Poll()
        {
            while (true)
            {
                if (!jobs.TryRecv(out var job))
                {
                    yield return Event.Yield;
                    continue;
                }

                if (job < 0)
                {
                    yield break;
                }

                Interlocked.Increment(ref counts[job]);
                byPoller++;
            }
        }
    }
}
