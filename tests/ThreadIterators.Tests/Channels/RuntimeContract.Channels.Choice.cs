using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Tests;

public abstract partial class RuntimeContract
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Choice_ChannelReadAndMailboxReceive_RacingProducers_EveryItemDeliveredOnce(bool singleReader)
    {
        const int Items = 4_000;
        var channel = singleReader
            ? Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true, AllowSynchronousContinuations = true })
            : Channel.CreateUnbounded<int>();
        var inbox = new Mailbox<int>("inbox");
        var taken = new int[2 * Items];
        var fromChannel = 0;
        var fromMailbox = 0;

        // The chooser takes channel items and messages as they come; on a multi-reader channel a plain reader races
        // it for the items, so a read the choice chose may find its item gone and wait again.
        var chooser = Scheduler.Spawn(Choose(), "chooser");
        var rival = singleReader ? null : Scheduler.Spawn(Rival(), "rival reader");
        var channelWriter = new Thread(() =>
        {
            for (var i = 0; i < Items; i++)
            {
                channel.Writer.TryWrite(i);
            }

            channel.Writer.Complete();
        });
        var sender = new Thread(() =>
        {
            for (var i = Items; i < 2 * Items; i++)
            {
                inbox.Send(i);
            }

            inbox.Send(-1);
        });
        channelWriter.Start();
        sender.Start();
        Assert.True(channelWriter.Join(Timeout));
        Assert.True(sender.Join(Timeout));
        Join(chooser);
        if (rival is not null)
        {
            Join(rival);
        }

        Assert.All(taken, t => Assert.Equal(1, t));
        Assert.Equal(Items, Volatile.Read(ref fromMailbox));
        Assert.True(singleReader ? fromChannel == Items : fromChannel <= Items);

        IEnumerable<Event> Choose()
        {
            var read = channel.Reader.CreateReadEvent();
            var receive = inbox.Recv();
            var choice = new Choice(read, receive);
            var mailboxDone = false;
            var channelDone = false;
            while (!channelDone || !mailboxDone)
            {
                // Once one side is done, wait on the other alone: a completed channel would win every choice at once.
                yield return channelDone ? receive : mailboxDone ? read : choice;
                if (channelDone || (!mailboxDone && choice.Index == 1))
                {
                    if (receive.Value == -1)
                    {
                        mailboxDone = true;
                        continue;
                    }

                    Interlocked.Increment(ref taken[receive.Value]);
                    fromMailbox++;
                }
                else if (read.IsCompleted)
                {
                    channelDone = true;
                }
                else
                {
                    Interlocked.Increment(ref taken[read.Value]);
                    fromChannel++;
                }
            }
        }

        IEnumerable<Event> Rival()
        {
            var read = channel.Reader.CreateReadEvent();
            while (true)
            {
                yield return read;
                if (read.IsCompleted)
                {
                    yield break;
                }

                Interlocked.Increment(ref taken[read.Value]);
            }
        }
    }

    [Fact]
    public void Choice_ReadLosesOnASingleReaderChannel_ItsPendingWaitIsRejoined_AloneAndInTheChoice()
    {
        // A single-reader channel cancels a wait when asked for a second one, so the event must wait on the first.
        var channel = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true });
        var inbox = new Mailbox<string>("inbox");
        var read = channel.Reader.CreateReadEvent();
        var seen = new List<string>();
        var chooser = Scheduler.Spawn(Choose(), "chooser");

        WaitUntil(() => Probe.IsWaiting(read), "the choice waits on the channel and the mailbox");
        inbox.Send("message");
        WaitUntil(() => seen.Count == 1 && Probe.IsWaiting(read), "the read, alone now, waits again");
        channel.Writer.TryWrite(5);
        WaitUntil(() => seen.Count == 2 && Probe.IsWaiting(read), "the choice waits again");
        channel.Writer.TryWrite(6);
        Join(chooser);

        Assert.Equal(["message", "item 5", "item 6"], seen);

        IEnumerable<Event> Choose()
        {
            var choice = new Choice(read, inbox.Recv());
            yield return choice;
            Assert.Equal(1, choice.Index);
            seen.Add(inbox.Recv().Value);

            // The losing read took nothing, and its wait on the channel is still the one registered.
            yield return read;
            seen.Add($"item {read.Value}");
            yield return choice;
            Assert.Equal(0, choice.Index);
            seen.Add($"item {read.Value}");
        }
    }

    [Fact]
    public void Choice_WriteLoses_WritesNothing_ThenWritesOnceChosen()
    {
        var full = Channel.CreateBounded<int>(1);
        full.Writer.TryWrite(1);
        var inbox = new Mailbox<string>("inbox");
        var write = full.Writer.CreateWriteEvent();
        var seen = new List<string>();
        var chooser = Scheduler.Spawn(Choose(), "chooser");

        WaitUntil(() => Probe.IsWaiting(write), "the choice waits for room and a message");
        inbox.Send("message");
        WaitUntil(() => seen.Count == 1, "the message is chosen");

        // The losing write left the channel as it was: only the item that filled it.
        Assert.Equal(1, full.Reader.Count);
        Assert.True(full.Reader.TryRead(out var first));
        Assert.Equal(1, first);
        Join(chooser);

        Assert.Equal(["message, not written", "written"], seen);
        Assert.True(full.Reader.TryRead(out var second));
        Assert.Equal(2, second);
        Assert.False(full.Reader.TryRead(out _));

        IEnumerable<Event> Choose()
        {
            var choice = new Choice(write.For(2), inbox.Recv());
            yield return choice;
            Assert.Equal(1, choice.Index);
            seen.Add($"{inbox.Recv().Value}, {(write.IsWritten ? "written" : "not written")}");

            // Armed with the same item: written once the test has made room.
            yield return choice;
            Assert.Equal(0, choice.Index);
            seen.Add(write.IsWritten ? "written" : "not written");
        }
    }

    [Fact]
    public async Task Choice_WriteLosesWhileAConsumerFreesRoom_WritesNothing_AndEveryChosenWriteArrivesOnce()
    {
        const int Rounds = 2_000;
        var channel = Channel.CreateBounded<int>(new BoundedChannelOptions(1) { SingleReader = true, SingleWriter = true });
        var wakeUps = new Mailbox<int>("wake-ups");
        var writesChosen = 0;
        var chooser = Scheduler.Spawn(Chooser(), "chooser");
        var consumer = Consume();
        var poker = new Thread(() =>
        {
            // Races the consumer freeing room: a wake-up message for the chooser's other branch.
            for (var r = 0; r < Rounds; r++)
            {
                wakeUps.Send(r);
            }
        });
        poker.Start();
        Assert.True(poker.Join(Timeout));
        Join(chooser);
        var received = await consumer.WaitAsync(Timeout);

        // Every write the choice reported as chosen arrived, once, in order; a write that lost wrote nothing.
        Assert.Equal(Enumerable.Range(0, writesChosen), received);

        IEnumerable<Event> Chooser()
        {
            var write = channel.Writer.CreateWriteEvent();
            var wakeUp = wakeUps.Recv();
            var choice = new Choice(wakeUp, write);
            var handled = 0;
            while (handled < Rounds)
            {
                write.For(writesChosen);
                yield return choice;
                if (choice.Index == 1)
                {
                    Assert.True(write.IsWritten);
                    writesChosen++;
                }
                else
                {
                    Assert.False(write.IsWritten);
                    handled++;
                }
            }

            channel.Writer.Complete();
        }

        async Task<List<int>> Consume()
        {
            var received = new List<int>();
            await foreach (var item in channel.Reader.ReadAllAsync())
            {
                received.Add(item);
            }

            return received;
        }
    }
}
