using System;
using System.Collections.Concurrent;
using System.Threading;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>What the connections of one load run share: the counts, the latencies, and the signal to stop.</summary>
internal sealed class ChatLoadRun : IDisposable
{
    private readonly CancellationTokenSource _stop = new();

    private long _delivered;
    private long _lastDelivery;
    private long _misordered;
    private long _connectionErrors;

    /// <summary>Gets the latencies of the lines delivered.</summary>
    internal LatencyHistogram Latencies { get; } = new();

    /// <summary>Gets the first few connection errors, for the report.</summary>
    internal ConcurrentQueue<string> Errors { get; } = new();

    internal CancellationToken Stopping => _stop.Token;

    internal long DeliveredCount => Volatile.Read(ref _delivered);

    internal long LastDelivery => Volatile.Read(ref _lastDelivery);

    internal long MisorderedCount => Volatile.Read(ref _misordered);

    internal long ConnectionErrors => Volatile.Read(ref _connectionErrors);

    internal void Delivered(long at, long microseconds)
    {
        Latencies.Add(microseconds);
        Interlocked.Increment(ref _delivered);

        // Only ever moves forward; a late writer of an earlier moment is harmless for a progress check.
        Volatile.Write(ref _lastDelivery, at);
    }

    internal void Misordered() => Interlocked.Increment(ref _misordered);

    internal void ConnectionError(string why)
    {
        if (Interlocked.Increment(ref _connectionErrors) <= 10)
        {
            Errors.Enqueue(why);
        }
    }

    internal void Stop() => _stop.Cancel();

    public void Dispose() => _stop.Dispose();
}
