using System;
using System.Collections.Generic;
using System.Linq;
using ThreadIterators.Benchmarks.Charting;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>
/// The ring grid as a chart: time against N on log-log axes for both sides on 1 and 2 OS threads, and below it
/// how many times faster ThreadIterators is.
/// </summary>
internal static class RingChart
{
    /// <summary>The chart's file name in the output folder.</summary>
    public const string FileName = "erlang-comparison-ring.png";

    /// <summary>
    /// Renders the PNG into <paramref name="output"/> and returns its path. Throws
    /// <see cref="InvalidOperationException"/> if there is nothing to draw.
    /// </summary>
    public static string Write(IReadOnlyList<CaseResult> results, string output)
    {
        var ring = results.Where(r => r.Case.Workload == "ring" && r.Complete).ToList();
        if (ring.Count == 0)
        {
            throw new InvalidOperationException("no ring case completed on both sides");
        }

        var messages = ring[0].Case.Sizes.M;
        List<(double X, double Y)> Points(int workers, Func<CaseResult, double> y) =>
            ring.Where(r => r.Case.Workers == workers).OrderBy(r => r.Case.Sizes.N).Select(r => ((double)r.Case.Sizes.N, y(r))).ToList();

        var times = new ChartPanel(
            $"Ring, M = {messages} messages through N forwarders: median of each side, same machine, same run",
            "N (forwarders)",
            "time (ms), log scale",
            [
                new("Erlang, 1 scheduler", Points(1, r => r.ErlangMedian), "#c0392b"),
                new("Erlang, 2 schedulers", Points(2, r => r.ErlangMedian), "#e67e22", Marker: false),
                new("ThreadIterators, 1 worker", Points(1, r => r.OurMedian), "#1f4e9c"),
                new("ThreadIterators, 2 workers", Points(2, r => r.OurMedian), "#16a085", Marker: false),
            ],
            LogXBase: 2,
            LogYBase: 10);
        var ratios = new ChartPanel(
            "How many times faster ThreadIterators is",
            "N (forwarders)",
            "Erlang time / ThreadIterators time",
            [
                new("1 OS thread", Points(1, r => r.ErlangMedian / r.OurMedian), "#1f4e9c"),
                new("2 OS threads", Points(2, r => r.ErlangMedian / r.OurMedian), "#16a085", Marker: false),
            ],
            LogXBase: 2,
            Levels: [new(4, "4x (the target for N >= 1024)", "#555555"), new(1, "1x", "#999999")]);
        return ChartFile.Save(System.IO.Path.Combine(System.IO.Path.GetFullPath(output), FileName), 1000, 450, times, ratios);
    }
}
