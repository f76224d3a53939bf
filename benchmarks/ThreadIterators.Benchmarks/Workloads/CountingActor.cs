using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// CountingActor (Theron): one thread receives N increments, then a request for the total, which it answers to the
/// sender. The result is the total, N.
/// </summary>
public static class CountingActor
{
    /// <summary>The message that asks for the total; every other message is an increment.</summary>
    private const long GetCount = 0;

    /// <summary>The total after <paramref name="messages"/> increments of one.</summary>
    public static long Expected(long messages) => messages;

    /// <summary>A green sender and a green counter.</summary>
    public static long GreenThreads(Scheduler scheduler, long messages)
    {
        var counterInbox = new Mailbox<long>();
        var senderInbox = new Mailbox<long>();
        var total = new StrongBox<long>();
        scheduler.Spawn(Counter(counterInbox, senderInbox));
        scheduler.Spawn(Sender(counterInbox, senderInbox, messages, total));
        scheduler.WaitForAll();
        return total.Value;
    }

    /// <summary>The baseline: a sender Task and a counter Task, each with an unbounded channel.</summary>
    public static long Tasks(long messages)
    {
        var counterInbox = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var senderInbox = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var counter = Task.Run(() => CounterAsync(counterInbox.Reader, senderInbox.Writer));
        var sender = Task.Run(() => SenderAsync(counterInbox.Writer, senderInbox.Reader, messages));
        Task.WaitAll(counter, sender);
        return sender.Result;
    }

    private static IEnumerable<Event> Counter(Mailbox<long> inbox, Mailbox<long> replyTo)
    {
        long count = 0;
        while (true)
        {
            var message = inbox.Recv();
            yield return message;
            if (message.Value == GetCount)
            {
                replyTo.Send(count);
                yield break;
            }

            count += message.Value;
        }
    }

    private static IEnumerable<Event> Sender(Mailbox<long> counter, Mailbox<long> inbox, long messages, StrongBox<long> total)
    {
        for (long i = 0; i < messages; i++)
        {
            counter.Send(1);
        }

        counter.Send(GetCount);
        var reply = inbox.Recv();
        yield return reply;
        total.Value = reply.Value;
    }

    private static async Task CounterAsync(ChannelReader<long> inbox, ChannelWriter<long> replyTo)
    {
        long count = 0;
        while (true)
        {
            var message = await inbox.ReadAsync().ConfigureAwait(false);
            if (message == GetCount)
            {
                replyTo.TryWrite(count);
                return;
            }

            count += message;
        }
    }

    private static async Task<long> SenderAsync(ChannelWriter<long> counter, ChannelReader<long> inbox, long messages)
    {
        for (long i = 0; i < messages; i++)
        {
            counter.TryWrite(1);
        }

        counter.TryWrite(GetCount);
        return await inbox.ReadAsync().ConfigureAwait(false);
    }
}
