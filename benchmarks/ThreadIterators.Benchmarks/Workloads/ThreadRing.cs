using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// ThreadRing (Theron, Benchmarks Game): 503 threads in a ring pass one token H times; each holder decrements it,
/// and the holder that receives 0 is the answer, <c>H % 503 + 1</c>. Then a stop marker goes round once.
/// </summary>
public static class ThreadRing
{
    /// <summary>Threads in the ring.</summary>
    public const int Size = 503;

    /// <summary>The id (1-based) of the thread holding the token after <paramref name="hops"/> hops.</summary>
    public static long Expected(long hops) => hops % Size + 1;

    /// <summary>Green threads and mailboxes.</summary>
    public static long GreenThreads(Scheduler scheduler, long hops)
    {
        var inboxes = new Mailbox<long>[Size];
        for (var i = 0; i < Size; i++)
        {
            inboxes[i] = new Mailbox<long>();
        }

        var winner = new StrongBox<long>();
        for (var i = 0; i < Size; i++)
        {
            scheduler.Spawn(Member(i + 1, inboxes[i], inboxes[(i + 1) % Size], winner));
        }

        inboxes[0].Send(hops);
        scheduler.WaitForAll();
        return winner.Value;
    }

    /// <summary>The baseline: one Task and one unbounded channel per ring member.</summary>
    public static long Tasks(long hops)
    {
        var channels = new Channel<long>[Size];
        for (var i = 0; i < Size; i++)
        {
            channels[i] = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });
        }

        var winner = new StrongBox<long>();
        var members = new Task[Size];
        for (var i = 0; i < Size; i++)
        {
            var id = i + 1;
            var inbox = channels[i].Reader;
            var next = channels[(i + 1) % Size].Writer;
            members[i] = Task.Run(() => MemberAsync(id, inbox, next, winner));
        }

        channels[0].Writer.TryWrite(hops);
        Task.WaitAll(members);
        return winner.Value;
    }

    /// <summary>The Benchmarks Game's C# shape: 503 OS threads, each handing the token on with a semaphore.</summary>
    public static long OsThreads(long hops)
    {
        var slots = new long[Size];
        var signals = new SemaphoreSlim[Size];
        for (var i = 0; i < Size; i++)
        {
            signals[i] = new SemaphoreSlim(0);
        }

        var winner = new StrongBox<long>();
        var threads = new Thread[Size];
        for (var i = 0; i < Size; i++)
        {
            var index = i;
            threads[i] = new Thread(() => OsMember(index, slots, signals, winner), 256 * 1024) { IsBackground = true };
            threads[i].Start();
        }

        slots[0] = hops;
        signals[0].Release();
        foreach (var thread in threads)
        {
            thread.Join();
        }

        foreach (var signal in signals)
        {
            signal.Dispose();
        }

        return winner.Value;
    }

    private static IEnumerable<Event> Member(int id, Mailbox<long> inbox, Mailbox<long> next, StrongBox<long> winner)
    {
        while (true)
        {
            var token = inbox.Recv();
            yield return token;
            if (!Forward(id, token.Value, winner, out var passOn))
            {
                next.Send(passOn);
                yield break;
            }

            next.Send(passOn);
        }
    }

    private static async Task MemberAsync(int id, ChannelReader<long> inbox, ChannelWriter<long> next, StrongBox<long> winner)
    {
        while (true)
        {
            var token = await inbox.ReadAsync().ConfigureAwait(false);
            var goOn = Forward(id, token, winner, out var passOn);
            next.TryWrite(passOn);
            if (!goOn)
            {
                return;
            }
        }
    }

    private static void OsMember(int index, long[] slots, SemaphoreSlim[] signals, StrongBox<long> winner)
    {
        var next = (index + 1) % Size;
        while (true)
        {
            signals[index].Wait();
            var goOn = Forward(index + 1, slots[index], winner, out var passOn);
            slots[next] = passOn;
            signals[next].Release();
            if (!goOn)
            {
                return;
            }
        }
    }

    /// <summary>One member's step: what to pass on, and whether to keep going (false after the stop marker).</summary>
    private static bool Forward(int id, long token, StrongBox<long> winner, out long passOn)
    {
        if (token > 0)
        {
            passOn = token - 1;
            return true;
        }

        if (token == 0)
        {
            winner.Value = id;
        }

        // The winner starts the stop marker round; everyone else forwards it once and ends.
        passOn = -1;
        return false;
    }
}
