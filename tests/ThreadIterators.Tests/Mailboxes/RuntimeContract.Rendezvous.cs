using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

// The rendezvous mailbox (capacity 0): a send completes only once the receiver has taken its message.
public abstract partial class RuntimeContract
{
    [Fact]
    public void Rendezvous_CapacityZero_HoldsNothing_TrySendOnlyToAWaitingReceiver()
    {
        var inbox = new Mailbox<int>(0, "handshake");
        Assert.Equal(0, inbox.Capacity);
        Assert.False(inbox.TrySend(1), "no receiver waits");
        Assert.Equal(0, inbox.Count);

        var received = new ConcurrentQueue<int>();
        var receiver = Scheduler.Spawn(ReceiveInto(inbox, 1, received), "receiver");
        WaitUntil(() => inbox.IsReceiverParked, "the receiver waits");
        Assert.True(inbox.TrySend(7), "the receiver waits, so the message is handed over");
        Join(receiver);
        Assert.Equal([7], received);
        Assert.False(inbox.TrySend(8), "the receiver has ended");
    }

    [Fact]
    public void Rendezvous_Put_CompletesOnlyWhenTheReceiverTakes_LastPutRefusedWhenReceiverEnds()
    {
        // The receiver takes 3 of 4 messages and ends: exactly 3 puts complete; the fourth is refused, not delivered.
        var inbox = new Mailbox<int>(0, "handshake");
        var completedPuts = 0;
        var sender = Scheduler.Spawn(PutFour(), "sender");
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the sender waits for a receiver");
        Assert.Equal(0, Volatile.Read(ref completedPuts));
        Assert.Equal(0, inbox.Count);

        var received = new ConcurrentQueue<int>();
        Run(ReceiveInto(inbox, 3, received), "receiver");
        var error = Assert.Throws<ChannelClosedException>(() => sender.Wait(Timeout));
        Assert.Contains("'handshake'", error.Message, StringComparison.Ordinal);
        Assert.Equal([0, 1, 2], received);
        Assert.Equal(3, Volatile.Read(ref completedPuts));
        Assert.Equal(0, inbox.Count);

        IEnumerable<Event> PutFour()
        {
            var put = inbox.CreatePutEvent();
            for (var i = 0; i < 4; i++)
            {
                yield return put.For(i);
                Assert.True(put.IsSent);
                Interlocked.Increment(ref completedPuts);
            }
        }
    }

    [Fact]
    public async Task Rendezvous_TryRecv_TakesAWaitingOsSendersMessage_AndReleasesIt()
    {
        var inbox = new Mailbox<int>(0, "handshake");
        var send = Task.Run(() => inbox.Send(42));
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the OS thread blocks in Send");
        Assert.False(send.IsCompleted);
        var taken = -1;
        Run(TryOnce(), "receiver");
        Assert.Equal(42, taken);
        await send.WaitAsync(Timeout);

        IEnumerable<Event> TryOnce()
        {
            Assert.True(inbox.TryRecv(out taken));
            Assert.False(inbox.TryRecv(out _), "no other sender waits");
            yield break;
        }
    }

    [Fact]
    public async Task Rendezvous_OsAndAsyncSends_CancelledBeforeTheTake_DeliverNothing()
    {
        var inbox = new Mailbox<int>(0, "handshake") { OutlivesReceiver = true };
        using var blocking = new CancellationTokenSource();
        using var pending = new CancellationTokenSource();
        var send = Task.Run(() => inbox.Send(1, blocking.Token));
        var sendAsync = inbox.SendAsync(2, pending.Token).AsTask();
        WaitUntil(() => Probe.WaitingSenders(inbox) == 2, "both senders wait");
        blocking.Cancel();
        pending.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => send);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => sendAsync);

        var results = new List<string>();
        Run(PollTwice(), "receiver");
        Assert.Equal(["nothing", "nothing"], results);

        // An async send the receiver takes completes, and only then.
        var taken = inbox.SendAsync(3).AsTask();
        WaitUntil(() => Probe.WaitingSenders(inbox) >= 1, "the async send waits");
        Assert.False(taken.IsCompleted);
        var received = new ConcurrentQueue<int>();
        Run(ReceiveInto(inbox, 1, received), "receiver");
        await taken.WaitAsync(Timeout);
        Assert.Equal([3], received);

        IEnumerable<Event> PollTwice()
        {
            var poll = inbox.Recv().WithTimeout(TimeSpan.Zero);
            for (var i = 0; i < 2; i++)
            {
                yield return poll;
                results.Add(poll.TimedOut ? "nothing" : poll.Inner.Value.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }
    }

    [Fact]
    public void Rendezvous_PutWithTimeout_NoReceiver_TimesOutAndDeliversNothing()
    {
        var inbox = new Mailbox<int>(0, "handshake") { OutlivesReceiver = true };
        var timedOut = false;
        Run(PutOnce(), "sender");
        Assert.True(timedOut);
        var got = true;
        Run(Poll(), "receiver");
        Assert.False(got, "the timed-out put left nothing to take");

        IEnumerable<Event> PutOnce()
        {
            var put = inbox.Put(5).WithTimeout(TimeSpan.FromMilliseconds(20));
            yield return put;
            timedOut = put.TimedOut;
        }

        IEnumerable<Event> Poll()
        {
            got = inbox.TryRecv(out _);
            yield break;
        }
    }

    [Fact]
    public void Rendezvous_PutBranchThatLoses_DeliversNothing_ReceiveBranchTakesOnlyFromACommittedSender()
    {
        // The sender's choice: a message already in its own inbox (branch 0, looked at first) or a put. It takes the
        // message, so the put is withdrawn: the receiver, waiting with a timeout, gets nothing.
        var own = new Mailbox<int>("own");
        own.Send(1);
        var inbox = new Mailbox<int>(0, "handshake") { OutlivesReceiver = true };
        var receiverTimedOut = false;
        var receiver = Scheduler.Spawn(ReceiveWithTimeout(), "receiver");
        WaitUntil(() => inbox.IsReceiverParked, "the receiver waits");
        var chosen = -1;
        Run(ChooseOnce(), "sender");
        Assert.Equal(0, chosen);
        Join(receiver);
        Assert.True(receiverTimedOut, "the losing put delivered nothing");

        IEnumerable<Event> ChooseOnce()
        {
            var put = inbox.CreatePutEvent().For(2);
            var choice = new Choice(own.Recv(), put);
            yield return choice;
            chosen = choice.Index;
            Assert.False(put.IsSent);
        }

        IEnumerable<Event> ReceiveWithTimeout()
        {
            var receive = inbox.Recv().WithTimeout(TimeSpan.FromMilliseconds(100));
            yield return receive;
            receiverTimedOut = receive.TimedOut;
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Rendezvous_ChoicesOnBothSides_EveryMessageOnce_EachSentPutTakenAndNoOther(bool timeouts)
    {
        // Two senders choose between putting into either of two rendezvous mailboxes (or, with timeouts, give up
        // after a moment); one receiver chooses between receiving from either. Every put that reports sent is
        // received exactly once, and nothing else is.
        const int perSender = 300;
        var first = new Mailbox<int>(0, "first");
        var second = new Mailbox<int>(0, "second");
        var sent = new ConcurrentQueue<int>();
        var received = new ConcurrentQueue<int>();
        var senders = Enumerable.Range(0, 2).Select(s => Scheduler.Spawn(Produce(s), $"sender {s}")).ToList();
        var receiver = Scheduler.Spawn(Consume(), "receiver");
        foreach (var sender in senders)
        {
            Join(sender);
        }

        first.Complete();
        second.Complete();
        Join(receiver);
        Assert.Equal(sent.Order(), received.Order());
        if (!timeouts)
        {
            Assert.Equal(2 * perSender, received.Count);
        }

        IEnumerable<Event> Produce(int sender)
        {
            var toFirst = first.CreatePutEvent();
            var toSecond = second.CreatePutEvent();
            var choice = timeouts ? new Choice(toFirst, toSecond, Event.Sleep(TimeSpan.FromMilliseconds(1))) : new Choice(toFirst, toSecond);
            for (var i = 0; i < perSender; i++)
            {
                var message = (sender * 100_000) + i;
                toFirst.For(message);
                toSecond.For(message);
                yield return choice;
                if (choice.Index == 2)
                {
                    // Timed out: neither put sent.
                    Assert.False(toFirst.IsSent || toSecond.IsSent);
                    continue;
                }

                Assert.True(choice.Index == 0 ? toFirst.IsSent : toSecond.IsSent);
                Assert.False(choice.Index == 0 ? toSecond.IsSent : toFirst.IsSent);
                sent.Enqueue(message);
            }
        }

        IEnumerable<Event> Consume()
        {
            var choice = timeouts
                ? new Choice(first.Recv(), second.Recv(), Event.Sleep(TimeSpan.FromMilliseconds(1)))
                : new Choice(first.Recv(), second.Recv());
            var ended = 0;
            while (ended < 2)
            {
                yield return choice;
                if (choice.Index == 2)
                {
                    continue;
                }

                var receive = choice.Index == 0 ? first.Recv() : second.Recv();
                if (receive.IsCompleted)
                {
                    choice.Disable(choice.Index);
                    ended++;
                    continue;
                }

                received.Enqueue(receive.Value);
            }
        }
    }

    [Fact]
    public async Task Rendezvous_GreenOsAndAsyncSendersRaceAMixedReceiver_EveryMessageOnceInPerSenderOrder()
    {
        // Green threads put (alone, with a timeout they never reach, and as a choice's branch), OS threads Send, async
        // code awaits SendAsync; the receiver mixes Recv, TryRecv, a zero-timeout poll and a choice. Every message
        // arrives once, each sender's in its order.
        const int perSender = 400;
        var inbox = new Mailbox<(int Sender, int Number)>(0, "handshake");
        var green = Enumerable.Range(0, 3).Select(s => Scheduler.Spawn(GreenSender(s), $"green {s}")).ToList();
        var os = Enumerable.Range(3, 2).Select(s => Task.Run(() =>
        {
            for (var i = 0; i < perSender; i++)
            {
                inbox.Send((s, i));
            }
        })).ToList();
        var async = Enumerable.Range(5, 2).Select(async s =>
        {
            for (var i = 0; i < perSender; i++)
            {
                await inbox.SendAsync((s, i));
            }
        }).ToList();
        var next = new int[7];
        var receiver = Scheduler.Spawn(Receive(), "receiver");
        foreach (var thread in green)
        {
            Join(thread);
        }

        await Task.WhenAll(os.Concat(async)).WaitAsync(Timeout);
        inbox.Complete();
        Join(receiver);
        Assert.All(next, n => Assert.Equal(perSender, n));

        IEnumerable<Event> GreenSender(int sender)
        {
            var put = inbox.CreatePutEvent();
            var idle = new Mailbox<int>("idle");
            var choice = new Choice(idle.Recv(), put);
            for (var i = 0; i < perSender; i++)
            {
                switch (i % 3)
                {
                    case 0:
                        yield return inbox.Put((sender, i));
                        break;
                    case 1:
                        var timed = inbox.Put((sender, i)).WithTimeout(Timeout);
                        yield return timed;
                        Assert.False(timed.TimedOut);
                        break;
                    default:
                        put.For((sender, i));
                        yield return choice;
                        Assert.Equal(1, choice.Index);
                        break;
                }
            }
        }

        IEnumerable<Event> Receive()
        {
            var receive = inbox.Recv();
            var poll = receive.WithTimeout(TimeSpan.Zero);
            var idle = new Mailbox<int>("idle");
            var choice = new Choice(receive, idle.Recv());
            for (var round = 0; ; round++)
            {
                (int Sender, int Number) message;
                if (round % 4 == 1 && inbox.TryRecv(out var tried))
                {
                    message = tried;
                }
                else if (round % 4 == 2)
                {
                    yield return poll;
                    if (poll.TimedOut)
                    {
                        continue;
                    }

                    if (receive.IsCompleted)
                    {
                        yield break;
                    }

                    message = receive.Value;
                }
                else
                {
                    yield return round % 4 == 3 ? choice : receive;
                    if (receive.IsCompleted)
                    {
                        yield break;
                    }

                    message = receive.Value;
                }

                Assert.Equal(next[message.Sender], message.Number);
                next[message.Sender]++;
            }
        }
    }

    [Fact]
    public async Task Rendezvous_TrySendRacingTheReceiversOtherBranch_SucceedsOnlyIfTaken_NoDeadLetters()
    {
        // The receiver waits on a choice of the rendezvous mailbox and a stop mailbox, and ends when the stop comes;
        // an OS thread tries to send all along. A TrySend that reports success was taken by the receiver: one that
        // met the receiver just as the stop's branch won must send nothing (else the receiver ends with it, and it
        // goes to the dead letters).
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => letters.Enqueue(e);
        for (var round = 0; round < 200; round++)
        {
            var inbox = new Mailbox<int>(0, "handshake");
            var stop = new Mailbox<int>("stop");
            var received = 0;
            var receiver = Scheduler.Spawn(Receive(), "receiver");
            var successes = 0;
            var sender = Task.Run(() =>
            {
                while (!receiver.IsCompleted)
                {
                    if (inbox.TrySend(1))
                    {
                        successes++;
                        if (successes == 1)
                        {
                            stop.Send(0);
                        }
                    }
                }
            });
            Join(receiver);
            await sender.WaitAsync(Timeout);
            Assert.True(successes == received, $"round {round}: {successes} sends reported taken, the receiver took {received}");

            IEnumerable<Event> Receive()
            {
                var choice = new Choice(inbox.Recv(), stop.Recv());
                while (true)
                {
                    yield return choice;
                    if (choice.Index == 1)
                    {
                        yield break;
                    }

                    received++;
                }
            }
        }

        Assert.Empty(letters);
    }

    [Fact]
    public void Rendezvous_StopOfAWaitingSenderOrReceiver_LosesAndDuplicatesNothing()
    {
        var letters = new ConcurrentQueue<DeadLetterEventArgs>();
        Scheduler.DeadLetter += (_, e) => letters.Enqueue(e);

        // A stopped sender sent nothing: a later receiver takes only the next sender's message.
        var inbox = new Mailbox<int>(0, "handshake") { OutlivesReceiver = true };
        var stopped = Scheduler.Spawn(PutOne(inbox, 1), "stopped sender");
        WaitUntil(() => Probe.WaitingSenders(inbox) == 1, "the sender waits");
        stopped.Stop("no longer needed");
        Assert.ThrowsAny<Exception>(() => stopped.Wait(Timeout));
        var later = Scheduler.Spawn(PutOne(inbox, 2), "later sender");
        var received = new ConcurrentQueue<int>();
        Run(ReceiveInto(inbox, 1, received), "receiver");
        Join(later);
        Assert.Equal([2], received);

        // A stopped receiver took nothing; its mailbox is completed in its name, and the waiting sender is refused.
        var owned = new Mailbox<int>(0, "owned");
        var receiver = Scheduler.Spawn(ReceiveInto(owned, 5, received), "stopped receiver");
        WaitUntil(() => owned.IsReceiverParked, "the receiver waits");
        receiver.Stop("no longer needed");
        Assert.ThrowsAny<Exception>(() => receiver.Wait(Timeout));
        var refused = Scheduler.Spawn(PutOne(owned, 3), "refused sender");
        var error = Assert.Throws<ChannelClosedException>(() => refused.Wait(Timeout));
        Assert.Contains("'owned'", error.Message, StringComparison.Ordinal);
        Assert.Equal([2], received);
        Assert.Empty(letters);

        static IEnumerable<Event> PutOne(Mailbox<int> inbox, int message)
        {
            yield return inbox.Put(message);
        }
    }

    [Fact]
    public async Task Rendezvous_Complete_RefusesWaitingSendersAndEndsTheReceiver()
    {
        var inbox = new Mailbox<int>(0, "handshake");
        var green = Scheduler.Spawn(PutOne(), "green sender");
        var os = Task.Run(() => inbox.Send(2));
        var pending = inbox.SendAsync(3).AsTask();
        WaitUntil(() => Probe.WaitingSenders(inbox) == 3, "three senders wait");
        inbox.Complete();
        Assert.Throws<ChannelClosedException>(() => green.Wait(Timeout));
        await Assert.ThrowsAsync<ChannelClosedException>(() => os);
        await Assert.ThrowsAsync<ChannelClosedException>(() => pending);
        var completed = false;
        Run(ReceiveEnd(), "receiver");
        Assert.True(completed);
        Assert.False(inbox.TrySend(4));

        IEnumerable<Event> PutOne()
        {
            yield return inbox.Put(1);
        }

        IEnumerable<Event> ReceiveEnd()
        {
            var receive = inbox.Recv();
            yield return receive;
            completed = receive.IsCompleted;
        }
    }

    [Fact]
    public void Rendezvous_Misuse_ThrowsNamingTheMailbox()
    {
        var inbox = new Mailbox<int>(0, "handshake");
        Assert.Contains("'handshake'", Assert.Throws<NotSupportedException>(() => inbox.AsChannelReader()).Message, StringComparison.Ordinal);
        var sender = Scheduler.Spawn(SendFromGreen(), "impatient");
        var error = Assert.Throws<InvalidOperationException>(() => sender.Wait(Timeout));
        Assert.Contains("'handshake'", error.Message, StringComparison.Ordinal);
        Assert.Equal("capacity", Assert.Throws<ArgumentOutOfRangeException>(() => new Mailbox<int>(-1)).ParamName);

        IEnumerable<Event> SendFromGreen()
        {
            inbox.Send(1);
            yield break;
        }
    }

    private static IEnumerable<Event> ReceiveInto(Mailbox<int> inbox, int count, ConcurrentQueue<int> received)
    {
        var receive = inbox.Recv();
        for (var i = 0; i < count; i++)
        {
            yield return receive;
            received.Enqueue(receive.Value);
        }
    }
}
