using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Skynet: a root spawns 10 children, each of them 10 more, down to <c>leaves</c> leaves (1,000,000: 1,111,111
/// threads in all). Each leaf sends its ordinal to its parent; each parent sends the sum of its children's answers
/// to its own parent. The answer is <c>leaves * (leaves - 1) / 2</c>, 499,999,500,000 for a million.
/// </summary>
public static class Skynet
{
    /// <summary>Children per parent.</summary>
    private const int Fanout = 10;

    /// <summary>The sum of the ordinals 0 .. leaves - 1.</summary>
    public static long Expected(long leaves) => leaves * (leaves - 1) / 2;

    /// <summary>Threads spawned for <paramref name="leaves"/> leaves (a power of ten).</summary>
    public static long Threads(long leaves)
    {
        long total = 0;
        for (var level = leaves; level >= 1; level /= Fanout)
        {
            total += level;
        }

        return total;
    }

    /// <summary>A green thread per node, each parent receiving its children's answers on its own mailbox.</summary>
    public static long GreenThreads(Scheduler scheduler, long leaves)
    {
        var answer = new Mailbox<long>();
        var result = new StrongBox<long>();
        scheduler.Spawn(Root(scheduler, leaves, answer, result));
        scheduler.WaitForAll();
        return result.Value;
    }

    /// <summary>The baseline: a Task per node, each parent reading its children's answers from its own channel.</summary>
    public static long Tasks(long leaves)
    {
        var answer = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });
        Task.Run(() => NodeAsync(0, leaves, answer.Writer)).GetAwaiter().GetResult();
        answer.Reader.TryRead(out var result);
        return result;
    }

    private static IEnumerable<Event> Root(Scheduler scheduler, long leaves, Mailbox<long> answer, StrongBox<long> result)
    {
        scheduler.Spawn(Node(scheduler, 0, leaves, answer));
        var sum = answer.Recv();
        yield return sum;
        result.Value = sum.Value;
    }

    private static IEnumerable<Event> Node(Scheduler scheduler, long ordinal, long size, Mailbox<long> parent)
    {
        if (size == 1)
        {
            parent.Send(ordinal);
            yield break;
        }

        var answers = new Mailbox<long>();
        var childSize = size / Fanout;
        for (var i = 0; i < Fanout; i++)
        {
            scheduler.Spawn(Node(scheduler, ordinal + i * childSize, childSize, answers));
        }

        long sum = 0;
        var answer = answers.Recv();
        for (var i = 0; i < Fanout; i++)
        {
            yield return answer;
            sum += answer.Value;
        }

        parent.Send(sum);
    }

    private static async Task NodeAsync(long ordinal, long size, ChannelWriter<long> parent)
    {
        if (size == 1)
        {
            parent.TryWrite(ordinal);
            return;
        }

        var answers = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });
        var childSize = size / Fanout;
        for (var i = 0; i < Fanout; i++)
        {
            var childOrdinal = ordinal + i * childSize;
            _ = Task.Run(() => NodeAsync(childOrdinal, childSize, answers.Writer));
        }

        long sum = 0;
        for (var i = 0; i < Fanout; i++)
        {
            sum += await answers.Reader.ReadAsync().ConfigureAwait(false);
        }

        parent.TryWrite(sum);
    }
}
