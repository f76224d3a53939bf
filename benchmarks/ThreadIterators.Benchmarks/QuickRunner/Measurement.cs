using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>What one run (or the median of several) measured; <see cref="GcPauseMs"/> is the time the garbage collector stopped the program, a share of <see cref="ElapsedMs"/> no worker count shortens under the workstation collector.</summary>
internal sealed record Measurement(
    double ElapsedMs,
    long Messages,
    long AllocatedBytes,
    int Gen0,
    int Gen1,
    int Gen2,
    long PeakWorkingSetBytes,
    long Result,
    double GcPauseMs = 0)
{
    public double MessagesPerSecond => Messages / (ElapsedMs / 1000);

    public double NsPerMessage => ElapsedMs * 1e6 / Messages;

    public double BytesPerMessage => (double)AllocatedBytes / Messages;

    /// <summary>Runs <paramref name="run"/> once and measures it.</summary>
    public static Measurement Take(long messages, Func<long> run)
    {
        var gen0 = GC.CollectionCount(0);
        var gen1 = GC.CollectionCount(1);
        var gen2 = GC.CollectionCount(2);
        var allocated = GC.GetTotalAllocatedBytes(precise: true);
        var paused = GC.GetTotalPauseDuration();
        var stopwatch = Stopwatch.StartNew();
        var result = run();
        stopwatch.Stop();
        var allocatedAfter = GC.GetTotalAllocatedBytes(precise: true);
        using var process = Process.GetCurrentProcess();
        return new Measurement(
            stopwatch.Elapsed.TotalMilliseconds,
            messages,
            allocatedAfter - allocated,
            GC.CollectionCount(0) - gen0,
            GC.CollectionCount(1) - gen1,
            GC.CollectionCount(2) - gen2,
            process.PeakWorkingSet64,
            result,
            (GC.GetTotalPauseDuration() - paused).TotalMilliseconds);
    }

    /// <summary>The median of each figure over several runs (their results must agree).</summary>
    public static Measurement Median(IReadOnlyList<Measurement> runs) => new(
        MedianOf(runs.Select(r => r.ElapsedMs)),
        runs[0].Messages,
        (long)MedianOf(runs.Select(r => (double)r.AllocatedBytes)),
        (int)MedianOf(runs.Select(r => (double)r.Gen0)),
        (int)MedianOf(runs.Select(r => (double)r.Gen1)),
        (int)MedianOf(runs.Select(r => (double)r.Gen2)),
        runs.Max(r => r.PeakWorkingSetBytes),
        runs[0].Result,
        MedianOf(runs.Select(r => r.GcPauseMs)));

    /// <summary>The middle value, or the mean of the two middle ones; the Erlang comparison takes its medians here too.</summary>
    internal static double MedianOf(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
