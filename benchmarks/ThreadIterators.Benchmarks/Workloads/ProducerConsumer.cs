using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// ProducerConsumer (Theron): two producers send N / 2 messages each to one consumer. Each message carries its
/// producer and sequence number; the consumer checks every producer's messages arrive in order. The result is the
/// number received in order, N.
/// </summary>
public static class ProducerConsumer
{
    /// <summary>Producers.</summary>
    private const int Producers = 2;

    /// <summary>Messages received in order.</summary>
    public static long Expected(long messages) => Producers * (messages / Producers);

    /// <summary>Green producers and a green consumer.</summary>
    public static long GreenThreads(Scheduler scheduler, long messages)
    {
        var inbox = new Mailbox<long>();
        var received = new StrongBox<long>();
        var each = messages / Producers;
        scheduler.Spawn(Consumer(inbox, each, received));
        for (var p = 0; p < Producers; p++)
        {
            scheduler.Spawn(Producer(inbox, p, each));
        }

        scheduler.WaitForAll();
        return received.Value;
    }

    /// <summary>The baseline: producer Tasks and a consumer Task on one unbounded channel.</summary>
    public static long Tasks(long messages)
    {
        var channel = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });
        var each = messages / Producers;
        var consumer = Task.Run(() => ConsumerAsync(channel.Reader, each));
        var producers = new Task[Producers];
        for (var p = 0; p < Producers; p++)
        {
            var producer = p;
            producers[p] = Task.Run(() =>
            {
                for (long i = 0; i < each; i++)
                {
                    channel.Writer.TryWrite(Encode(producer, i));
                }
            });
        }

        Task.WaitAll(producers);
        return consumer.GetAwaiter().GetResult();
    }

    private static long Encode(int producer, long sequence) => ((long)producer << 48) | sequence;

    private static IEnumerable<Event> Producer(Mailbox<long> consumer, int producer, long count)
    {
        for (long i = 0; i < count; i++)
        {
            consumer.Send(Encode(producer, i));
        }

        yield break;
    }

    private static IEnumerable<Event> Consumer(Mailbox<long> inbox, long each, StrongBox<long> received)
    {
        var next = new long[Producers];
        long inOrder = 0;
        for (long i = 0; i < Producers * each; i++)
        {
            var message = inbox.Recv();
            yield return message;
            inOrder += Check(message.Value, next);
        }

        received.Value = inOrder;
    }

    private static async Task<long> ConsumerAsync(ChannelReader<long> inbox, long each)
    {
        var next = new long[Producers];
        long inOrder = 0;
        for (long i = 0; i < Producers * each; i++)
        {
            inOrder += Check(await inbox.ReadAsync().ConfigureAwait(false), next);
        }

        return inOrder;
    }

    /// <summary>1 if the message is its producer's next one, else 0.</summary>
    private static long Check(long message, long[] next)
    {
        var producer = (int)(message >> 48);
        var sequence = message & 0xFFFF_FFFF_FFFF;
        return sequence == next[producer]++ ? 1 : 0;
    }
}
