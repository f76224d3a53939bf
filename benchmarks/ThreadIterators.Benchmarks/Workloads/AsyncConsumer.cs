using System.Collections.Generic;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Async code consuming what a green thread produces, with no green thread in between: through the producer's
/// <see cref="Mailbox{T}"/> read with <see cref="Mailbox{T}.AsChannelReader"/>, against an unbounded single-reader
/// <see cref="Channel{T}"/> the green thread writes with <c>TryWrite</c> (what a user would otherwise build). The
/// consumer is the same async loop over a <see cref="ChannelReader{T}"/> in both.
/// <list type="bullet">
/// <item>Stream: the producer sends 0 to N-1 and completes, yielding its turn every 64 messages; the consumer sums
/// them; the result is N(N-1)/2.</item>
/// <item>RoundTrip: the producer sends one message and waits in its own mailbox for the consumer's reply before the
/// next, so every message wakes the consumer and every reply wakes the producer; the result is N.</item>
/// </list>
/// </summary>
public static class AsyncConsumer
{
    /// <summary>The Stream result for <paramref name="messages"/>.</summary>
    public static long StreamExpected(long messages) => messages * (messages - 1) / 2;

    /// <summary>Stream through the producer's mailbox, read by async code.</summary>
    public static long MailboxStream(Scheduler scheduler, int messages)
    {
        var inbox = new Mailbox<int>("stream");
        var consumer = Task.Run(() => SumAsync(inbox.AsChannelReader()));
        scheduler.Spawn(ProduceToMailbox(inbox, messages));
        return consumer.GetAwaiter().GetResult();
    }

    /// <summary>The baseline: Stream through a channel the producer writes.</summary>
    public static long ChannelStream(Scheduler scheduler, int messages)
    {
        var channel = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var consumer = Task.Run(() => SumAsync(channel.Reader));
        scheduler.Spawn(ProduceToChannel(channel.Writer, messages));
        return consumer.GetAwaiter().GetResult();
    }

    /// <summary>RoundTrip through the producer's mailbox, read by async code.</summary>
    public static long MailboxRoundTrip(Scheduler scheduler, int messages)
    {
        var inbox = new Mailbox<int>("requests");
        var replies = new Mailbox<int>("replies");
        var consumer = Task.Run(() => ReplyAsync(inbox.AsChannelReader(), replies));
        scheduler.Spawn(Ask(replies, messages, message => inbox.Send(message), () => inbox.Complete()));
        return consumer.GetAwaiter().GetResult();
    }

    /// <summary>The baseline: RoundTrip through a channel the producer writes.</summary>
    public static long ChannelRoundTrip(Scheduler scheduler, int messages)
    {
        var channel = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var replies = new Mailbox<int>("replies");
        var consumer = Task.Run(() => ReplyAsync(channel.Reader, replies));
        scheduler.Spawn(Ask(replies, messages, message => channel.Writer.TryWrite(message), () => channel.Writer.Complete()));
        return consumer.GetAwaiter().GetResult();
    }

    private static async Task<long> SumAsync(ChannelReader<int> reader)
    {
        var sum = 0L;
        while (await reader.WaitToReadAsync().ConfigureAwait(false))
        {
            while (reader.TryRead(out var message))
            {
                sum += message;
            }
        }

        return sum;
    }

    private static async Task<long> ReplyAsync(ChannelReader<int> reader, Mailbox<int> replies)
    {
        var count = 0L;
        while (await reader.WaitToReadAsync().ConfigureAwait(false))
        {
            while (reader.TryRead(out var message))
            {
                replies.Send(message);
                count++;
            }
        }

        return count;
    }

    private static IEnumerable<Event> ProduceToMailbox(Mailbox<int> inbox, int messages)
    {
        for (var i = 0; i < messages; i++)
        {
            inbox.Send(i);
            if ((i & 63) == 63)
            {
                yield return Event.Yield;
            }
        }

        inbox.Complete();
    }

    private static IEnumerable<Event> ProduceToChannel(ChannelWriter<int> writer, int messages)
    {
        for (var i = 0; i < messages; i++)
        {
            writer.TryWrite(i);
            if ((i & 63) == 63)
            {
                yield return Event.Yield;
            }
        }

        writer.Complete();
    }

    private static IEnumerable<Event> Ask(Mailbox<int> replies, int messages, System.Action<int> send, System.Action complete)
    {
        var reply = replies.Recv();
        for (var i = 0; i < messages; i++)
        {
            send(i);
            yield return reply;
        }

        complete();
    }
}
