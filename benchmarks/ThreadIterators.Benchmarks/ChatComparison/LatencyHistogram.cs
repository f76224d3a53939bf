using System;
using System.Numerics;
using System.Threading;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// Latencies in microseconds, counted in log-linear buckets (exact below 128 µs, then 64 buckets per power of two, so
/// within 1.6%): any number of samples in a fixed 19 KB, any thread adding.
/// </summary>
internal sealed class LatencyHistogram
{
    private const int Exact = 128;
    private const int PerOctave = 64;
    private const int Buckets = Exact + (64 * PerOctave);

    private readonly long[] _counts = new long[Buckets];

    private long _total;

    /// <summary>Gets how many samples were added.</summary>
    public long Count => Volatile.Read(ref _total);

    /// <summary>Adds one sample. Any thread.</summary>
    public void Add(long microseconds)
    {
        Interlocked.Increment(ref _counts[IndexOf(Math.Max(0, microseconds))]);
        Interlocked.Increment(ref _total);
    }

    /// <summary>Gets the latency below which <paramref name="fraction"/> of the samples fall (the middle of its bucket), or 0 with none. After the adding is over.</summary>
    public double Percentile(double fraction)
    {
        var total = Count;
        if (total == 0)
        {
            return 0;
        }

        var rank = (long)Math.Ceiling(fraction * total);
        var seen = 0L;
        for (var i = 0; i < Buckets; i++)
        {
            seen += _counts[i];
            if (seen >= Math.Max(1, rank))
            {
                return Middle(i);
            }
        }

        return Middle(Buckets - 1);
    }

    private static int IndexOf(long value)
    {
        if (value < Exact)
        {
            return (int)value;
        }

        // The top seven bits pick the bucket: the power of two, and 64 steps within it.
        var shift = (63 - BitOperations.LeadingZeroCount((ulong)value)) - 6;
        return Math.Min(Buckets - 1, Exact + ((shift - 1) * PerOctave) + (int)(value >> shift) - PerOctave);
    }

    private static double Middle(int index)
    {
        if (index < Exact)
        {
            return index;
        }

        var shift = ((index - Exact) / PerOctave) + 1;
        var top = ((index - Exact) % PerOctave) + PerOctave;
        return (top << shift) + ((1L << shift) / 2.0);
    }
}
