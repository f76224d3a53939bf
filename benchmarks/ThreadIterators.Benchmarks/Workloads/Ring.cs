using System.Runtime.CompilerServices;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The ring of the original C# iterator library against Erlang: N forwarders in a line, M messages pumped in and
/// then a stop marker, counted at the drain. N·M hops. The result is the drain's count of messages received in
/// order, M.
/// </summary>
public static class Ring
{
    /// <summary>Messages the drain counts.</summary>
    public static long Expected(long messages) => messages;

    /// <summary>The ring of <c>samples/Ring</c>, which the README shows.</summary>
    public static long GreenThreads(Scheduler scheduler, int n, int m)
    {
        var received = new StrongBox<long>();
        scheduler.Spawn(Samples.Ring.RingBenchmark.Run(scheduler, n, m, received));
        scheduler.WaitForAll();
        return received.Value;
    }

    /// <summary>The baseline: a Task and an unbounded channel per forwarder.</summary>
    public static long Tasks(int n, int m)
    {
        var first = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var previous = first;
        var forwarders = new Task[n];
        for (var i = 0; i < n; i++)
        {
            var next = Channel.CreateUnbounded<int>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
            var inbox = previous.Reader;
            forwarders[i] = Task.Run(() => ForwardAsync(inbox, next.Writer));
            previous = next;
        }

        var last = previous.Reader;
        var drain = Task.Run(() => DrainAsync(last));
        for (var i = 0; i < m; i++)
        {
            first.Writer.TryWrite(i);
        }

        first.Writer.TryWrite(-1);
        Task.WaitAll(forwarders);
        return drain.GetAwaiter().GetResult();
    }

    private static async Task ForwardAsync(ChannelReader<int> inbox, ChannelWriter<int> outbox)
    {
        while (true)
        {
            var message = await inbox.ReadAsync().ConfigureAwait(false);
            outbox.TryWrite(message);
            if (message < 0)
            {
                return;
            }
        }
    }

    private static async Task<long> DrainAsync(ChannelReader<int> inbox)
    {
        long count = 0;
        while (true)
        {
            var message = await inbox.ReadAsync().ConfigureAwait(false);
            if (message < 0)
            {
                return count;
            }

            count = message == count ? count + 1 : long.MinValue;
        }
    }
}
