using System.Threading;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// What the threads of one latency run record, on either implementation: messages each client received, the
/// heartbeat's lateness, the completers' latencies; and the flag that tells the heartbeat and the hub to stop.
/// </summary>
internal sealed class LatencyProbe
{
    /// <summary>Longs between two clients' counters: 128 bytes, so clients on different cores do not share a cache line.</summary>
    private const int Stride = 16;

    /// <summary>Each client's received messages at <c>index * Stride</c>, and its work's state just after; written by the client alone.</summary>
    private readonly long[] _delivered;

    /// <summary>Xorshift steps of work per message received (see <see cref="LatencyWork"/>).</summary>
    private readonly int _work;

    private volatile bool _stopping;

    public LatencyProbe(int clients, int completers, int work)
    {
        _work = work;
        _delivered = new long[(clients + 1) * Stride];
        for (var i = 0; i < clients; i++)
        {
            _delivered[(i * Stride) + 1] = (long)ActorStates.Seed(i);
        }

        Completions = new LatencySamples[completers];
        for (var i = 0; i < completers; i++)
        {
            Completions[i] = new LatencySamples();
        }
    }

    /// <summary>Gets the heartbeat's wake-ups: how late each was, from the start of its sleep.</summary>
    public LatencySamples Heartbeat { get; } = new();

    /// <summary>Gets each completer's latencies, from the moment the OS thread took the timestamp it sent.</summary>
    public LatencySamples[] Completions { get; }

    /// <summary>Gets a value indicating whether the run is over: the heartbeat ends, and the hub ends at its next message.</summary>
    public bool Stopping => _stopping;

    /// <summary>Tells the heartbeat and the hub to end.</summary>
    public void Stop() => _stopping = true;

    /// <summary>Counts a message received by client <paramref name="client"/> and does its work for it; that client only.</summary>
    public void Delivered(int client)
    {
        var slot = client * Stride;
        _delivered[slot]++;
        if (_work > 0)
        {
            _delivered[slot + 1] = (long)LatencyWork.Spin((ulong)_delivered[slot + 1], _work);
        }
    }

    /// <summary>Gets the messages every client has received so far; any thread (each counter is read whole, the sum is not a snapshot).</summary>
    public long DeliveredTotal()
    {
        long total = 0;
        for (var i = 0; i < _delivered.Length; i += Stride)
        {
            total += Volatile.Read(ref _delivered[i]);
        }

        return total;
    }

    /// <summary>Gets the completions received so far by every completer; any thread.</summary>
    public long CompletionsReceived()
    {
        long total = 0;
        foreach (var samples in Completions)
        {
            total += samples.Count;
        }

        return total;
    }
}
