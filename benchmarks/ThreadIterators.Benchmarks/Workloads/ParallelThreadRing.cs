using System.Collections.Generic;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// ParallelThreadRing (Theron): the 503-thread ring with 503 tokens in flight at once, one starting at each member,
/// the hops split equally among them. A token that has made its hops retires; when the last retires, a stop marker
/// goes round. The result is the number of hops made, <c>503 * (H / 503)</c>.
/// </summary>
public static class ParallelThreadRing
{
    /// <summary>Threads and tokens in the ring.</summary>
    public const int Size = ThreadRing.Size;

    /// <summary>The hops made for a requested total of <paramref name="hops"/>.</summary>
    public static long Expected(long hops) => Size * (hops / Size);

    /// <summary>Green threads and mailboxes.</summary>
    public static long GreenThreads(Scheduler scheduler, long hops)
    {
        var inboxes = new Mailbox<long>[Size];
        for (var i = 0; i < Size; i++)
        {
            inboxes[i] = new Mailbox<long>();
        }

        var state = new RingState();
        for (var i = 0; i < Size; i++)
        {
            scheduler.Spawn(Member(inboxes[i], inboxes[(i + 1) % Size], state));
        }

        for (var i = 0; i < Size; i++)
        {
            inboxes[i].Send(hops / Size);
        }

        scheduler.WaitForAll();
        return state.Hops;
    }

    /// <summary>The baseline: one Task and one unbounded channel per ring member.</summary>
    public static long Tasks(long hops)
    {
        var channels = new Channel<long>[Size];
        for (var i = 0; i < Size; i++)
        {
            channels[i] = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });
        }

        var state = new RingState();
        var members = new Task[Size];
        for (var i = 0; i < Size; i++)
        {
            var inbox = channels[i].Reader;
            var next = channels[(i + 1) % Size].Writer;
            members[i] = Task.Run(() => MemberAsync(inbox, next, state));
        }

        for (var i = 0; i < Size; i++)
        {
            channels[i].Writer.TryWrite(hops / Size);
        }

        Task.WaitAll(members);
        return state.Hops;
    }

    private static IEnumerable<Event> Member(Mailbox<long> inbox, Mailbox<long> next, RingState state)
    {
        long hops = 0;
        while (true)
        {
            var token = inbox.Recv();
            yield return token;
            if (!state.Step(token.Value, ref hops, out var passOn))
            {
                next.Send(-1);
                yield break;
            }

            if (passOn >= 0)
            {
                next.Send(passOn);
            }
        }
    }

    private static async Task MemberAsync(ChannelReader<long> inbox, ChannelWriter<long> next, RingState state)
    {
        long hops = 0;
        while (true)
        {
            var token = await inbox.ReadAsync().ConfigureAwait(false);
            if (!state.Step(token, ref hops, out var passOn))
            {
                next.TryWrite(-1);
                return;
            }

            if (passOn >= 0)
            {
                next.TryWrite(passOn);
            }
        }
    }

    /// <summary>What the members share: how many tokens retired and how many hops were made in all.</summary>
    private sealed class RingState
    {
        /// <summary>Tokens that have made all their hops.</summary>
        private int _retired;

        /// <summary>Hops made, added up by each member as it ends.</summary>
        private long _hops;

        /// <summary>Gets the hops made by members that have ended.</summary>
        public long Hops => Interlocked.Read(ref _hops);

        /// <summary>
        /// One member's step for one token (remaining hops, or -1 for the stop marker). Returns false when the member
        /// must pass the stop marker on and end; otherwise <paramref name="passOn"/> is the token to forward, or -1
        /// if the token retired here.
        /// </summary>
        public bool Step(long token, ref long hops, out long passOn)
        {
            if (token > 0)
            {
                hops++;
                passOn = token - 1;
                return true;
            }

            passOn = -1;
            if (token == 0 && Interlocked.Increment(ref _retired) != Size)
            {
                return true;
            }

            // The last token retired here, or the stop marker arrived.
            Interlocked.Add(ref _hops, hops);
            return false;
        }
    }
}
