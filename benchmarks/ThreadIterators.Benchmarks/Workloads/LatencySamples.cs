using System.Collections.Generic;
using System.Threading;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The latencies one thread observed, each with the <see cref="System.Diagnostics.Stopwatch"/> timestamp it counts
/// from (when a completion was sent, when a sleep began), so a run keeps those that began inside its window.
/// </summary>
/// <remarks>
/// One writer, the thread that owns it. Other threads read <see cref="Count"/> and <see cref="LastStart"/> while it
/// runs, and <see cref="Between"/> only after it has ended.
/// </remarks>
internal sealed class LatencySamples
{
    private readonly List<(long Start, long Ticks)> _samples = new(capacity: 16_384);

    private long _count;

    private long _lastStart = long.MinValue;

    /// <summary>Gets how many samples have been added; any thread.</summary>
    public long Count => Volatile.Read(ref _count);

    /// <summary>Gets the start of the last sample added, or <see cref="long.MinValue"/>; any thread.</summary>
    public long LastStart => Volatile.Read(ref _lastStart);

    /// <summary>Adds a latency of <paramref name="ticks"/> (Stopwatch ticks) counted from <paramref name="start"/>. Owner only.</summary>
    public void Add(long start, long ticks)
    {
        _samples.Add((start, ticks));
        Volatile.Write(ref _lastStart, start);
        Volatile.Write(ref _count, _count + 1);
    }

    /// <summary>Adds to <paramref name="into"/> the latencies whose start is in [<paramref name="from"/>, <paramref name="to"/>). After the owner has ended.</summary>
    public void Between(long from, long to, List<long> into)
    {
        foreach (var (start, ticks) in _samples)
        {
            if (start >= from && start < to)
            {
                into.Add(ticks);
            }
        }
    }
}
