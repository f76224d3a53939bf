using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Reading a <see cref="Channel{T}"/> from a green thread (<see cref="ChannelReadEvent{T}"/>) against an async method
/// awaiting <see cref="ChannelReader{T}.ReadAsync"/>.
/// <list type="bullet">
/// <item>Ready: N items of 1 are in the channel before the reader starts, so no read waits; the result is N.</item>
/// <item>PingPong: <see cref="PingPong"/>'s counter bounced between two players over two unbounded single-reader,
/// single-writer channels, each player reading its inbox and writing the other's with <c>TryWrite</c>; the result is
/// the last message, 1. The async baseline is <see cref="PingPong.Tasks"/>.</item>
/// </list>
/// </summary>
public static class ChannelRead
{
    /// <summary>A channel holding <paramref name="items"/> items of 1.</summary>
    public static Channel<int> Prefilled(long items)
    {
        var channel = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        for (long i = 0; i < items; i++)
        {
            channel.Writer.TryWrite(1);
        }

        channel.Writer.Complete();
        return channel;
    }

    /// <summary>A green thread reads every item of <paramref name="channel"/> and returns their sum.</summary>
    public static long GreenThreadReady(Scheduler scheduler, Channel<int> channel)
    {
        var sum = new StrongBox<long>();
        scheduler.Spawn(ReadAll(channel.Reader, sum));
        scheduler.WaitForAll();
        return sum.Value;
    }

    /// <summary>The baseline: an async method awaits <c>ReadAsync</c> for every item until the channel is completed.</summary>
    public static long AwaitReady(Channel<int> channel) => Task.Run(() => ReadAllAsync(channel.Reader)).GetAwaiter().GetResult();

    /// <summary>
    /// PingPong between two green threads, each reading its channel with a read event. With
    /// <paramref name="synchronousContinuations"/> the channels run a completed wait's continuation on the writing
    /// thread (a worker), which makes the reader ready there; by default it goes through the thread pool.
    /// </summary>
    public static long GreenThreadPingPong(Scheduler scheduler, long messages, bool synchronousContinuations)
    {
        var options = new UnboundedChannelOptions { SingleReader = true, SingleWriter = true, AllowSynchronousContinuations = synchronousContinuations };
        var pingInbox = Channel.CreateUnbounded<long>(options);
        var pongInbox = Channel.CreateUnbounded<long>(options);
        var last = new StrongBox<long>();
        scheduler.Spawn(Player(pongInbox.Reader, pingInbox.Writer, (messages + 1) / 2, last));
        pongInbox.Writer.TryWrite(messages);
        scheduler.Spawn(Player(pingInbox.Reader, pongInbox.Writer, messages / 2, last));
        scheduler.WaitForAll();
        return last.Value;
    }

    private static IEnumerable<Event> ReadAll(ChannelReader<int> reader, StrongBox<long> sum)
    {
        var read = reader.CreateReadEvent();
        var total = 0L;
        while (true)
        {
            yield return read;
            if (read.IsCompleted)
            {
                break;
            }

            total += read.Value;
        }

        sum.Value = total;
    }

    private static async Task<long> ReadAllAsync(ChannelReader<int> reader)
    {
        var total = 0L;
        try
        {
            while (true)
            {
                total += await reader.ReadAsync().ConfigureAwait(false);
            }
        }
        catch (ChannelClosedException)
        {
            return total;
        }
    }

    /// <summary>Reads <paramref name="receives"/> messages, answering each with the counter minus one, except a final 1.</summary>
    private static IEnumerable<Event> Player(ChannelReader<long> inbox, ChannelWriter<long> outbox, long receives, StrongBox<long> last)
    {
        var read = inbox.CreateReadEvent();
        for (long i = 0; i < receives; i++)
        {
            yield return read;
            var ball = read.Value;
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
