using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// PingPong (Theron): two threads bounce a counter, each decrementing it before sending it back; M messages are
/// M / 2 round trips. The counter starts at M, so the last message carries 1, which is the result.
/// </summary>
public static class PingPong
{
    /// <summary>The value of the last message.</summary>
    public static long Expected(long messages) => 1;

    /// <summary>Green threads and mailboxes.</summary>
    public static long GreenThreads(Scheduler scheduler, long messages)
    {
        var pingInbox = new Mailbox<long>();
        var pongInbox = new Mailbox<long>();
        var last = new StrongBox<long>();
        scheduler.Spawn(Player(pongInbox, pingInbox, (messages + 1) / 2, last, serve: false));
        scheduler.Spawn(Player(pingInbox, pongInbox, messages / 2, last, serve: true, initial: messages));
        scheduler.WaitForAll();
        return last.Value;
    }

    /// <summary>
    /// Green threads whose every receive is a <see cref="Choice"/> between the inbox and a second mailbox nobody sends
    /// to: the cost of a choice over two mailboxes against <see cref="GreenThreads"/>.
    /// </summary>
    public static long Choosing(Scheduler scheduler, long messages)
    {
        var pingInbox = new Mailbox<long>();
        var pongInbox = new Mailbox<long>();
        var last = new StrongBox<long>();
        scheduler.Spawn(ChoosingPlayer(pongInbox, pingInbox, (messages + 1) / 2, last, serve: false));
        scheduler.Spawn(ChoosingPlayer(pingInbox, pongInbox, messages / 2, last, serve: true, initial: messages));
        scheduler.WaitForAll();
        return last.Value;
    }

    /// <summary>
    /// Green threads whose every receive has a timeout (one second, never reached): the cost of a timeout that does
    /// not expire against <see cref="GreenThreads"/>.
    /// </summary>
    public static long TimingOut(Scheduler scheduler, long messages)
    {
        var pingInbox = new Mailbox<long>();
        var pongInbox = new Mailbox<long>();
        var last = new StrongBox<long>();
        scheduler.Spawn(TimingOutPlayer(pongInbox, pingInbox, (messages + 1) / 2, last, serve: false));
        scheduler.Spawn(TimingOutPlayer(pingInbox, pongInbox, messages / 2, last, serve: true, initial: messages));
        scheduler.WaitForAll();
        return last.Value;
    }

    /// <summary>The baseline: two Tasks and two unbounded channels.</summary>
    public static long Tasks(long messages)
    {
        var pingInbox = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var pongInbox = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var last = new StrongBox<long>();
        var pong = Task.Run(() => PlayerAsync(pongInbox.Reader, pingInbox.Writer, (messages + 1) / 2, last));
        pongInbox.Writer.TryWrite(messages);
        var ping = Task.Run(() => PlayerAsync(pingInbox.Reader, pongInbox.Writer, messages / 2, last));
        Task.WaitAll(ping, pong);
        return last.Value;
    }

    /// <summary>Receives <paramref name="receives"/> messages, answering each with the counter minus one, except a final 1.</summary>
    private static IEnumerable<Event> Player(Mailbox<long> inbox, Mailbox<long> outbox, long receives, StrongBox<long> last, bool serve, long initial = 0)
    {
        if (serve)
        {
            outbox.Send(initial);
        }

        for (long i = 0; i < receives; i++)
        {
            var ball = inbox.Recv();
            yield return ball;
            if (ball.Value == 1)
            {
                last.Value = 1;
            }
            else
            {
                outbox.Send(ball.Value - 1);
            }
        }
    }

    /// <summary>As <see cref="Player"/>, each receive a choice between the inbox and an idle mailbox, built once.</summary>
    private static IEnumerable<Event> ChoosingPlayer(Mailbox<long> inbox, Mailbox<long> outbox, long receives, StrongBox<long> last, bool serve, long initial = 0)
    {
        var idle = new Mailbox<string>();
        var choice = new Choice(inbox.Recv(), idle.Recv());
        if (serve)
        {
            outbox.Send(initial);
        }

        for (long i = 0; i < receives; i++)
        {
            yield return choice;
            var ball = inbox.Recv().Value;
            if (ball == 1)
            {
                last.Value = 1;
            }
            else
            {
                outbox.Send(ball - 1);
            }
        }
    }

    /// <summary>As <see cref="Player"/>, each receive with a one-second timeout, made once.</summary>
    private static IEnumerable<Event> TimingOutPlayer(Mailbox<long> inbox, Mailbox<long> outbox, long receives, StrongBox<long> last, bool serve, long initial = 0)
    {
        var receive = inbox.Recv().WithTimeout(TimeSpan.FromSeconds(1));
        if (serve)
        {
            outbox.Send(initial);
        }

        for (long i = 0; i < receives; i++)
        {
            yield return receive;
            if (receive.TimedOut)
            {
                throw new InvalidOperationException($"A receive of PingPong.TimingOut timed out at message {i}.");
            }

            var ball = receive.Inner.Value;
            if (ball == 1)
            {
                last.Value = 1;
            }
            else
            {
                outbox.Send(ball - 1);
            }
        }
    }

    private static async Task PlayerAsync(ChannelReader<long> inbox, ChannelWriter<long> outbox, long receives, StrongBox<long> last)
    {
        for (long i = 0; i < receives; i++)
        {
            var ball = await inbox.ReadAsync().ConfigureAwait(false);
            if (ball == 1)
            {
                last.Value = 1;
            }
            else
            {
                outbox.TryWrite(ball - 1);
            }
        }
    }
}
