using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.Charting;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>The scaling table as a chart: for each workload, each implementation's speed-up from 1 to 2 OS threads as a bar.</summary>
internal static class ScalingChart
{
    /// <summary>The chart's file name in the output folder.</summary>
    public const string FileName = "erlang-comparison-scaling.png";

    private static readonly string[] s_colors = ["#1f4e9c", "#c0392b", "#7f8c8d", "#8e44ad", "#e67e22"];

    /// <summary>
    /// Renders the PNG into <paramref name="output"/> and returns its path. Throws
    /// <see cref="InvalidOperationException"/> if no workload ran on both thread counts.
    /// </summary>
    public static string Write(IReadOnlyList<ScalingRow> rows, string output)
    {
        if (rows.Count == 0)
        {
            throw new InvalidOperationException("no workload ran with the peers on both 1 and 2 OS threads");
        }

        var series = ScalingRow.Implementations
            .Select((implementation, index) => new ChartSeries(
                implementation.Display,
                rows.Select((row, category) => ((double)category, row.Speedup(implementation.Name))).ToList(),
                s_colors[index % s_colors.Length]))
            .ToList();
        var panel = new ChartPanel(
            "Speed-up from 1 to 2 OS threads: time on 1 / time on 2, medians, same machine, same run",
            "workload",
            "speed-up (above 1: faster on 2)",
            series,
            Levels: [new(1, "1x: no faster on 2 than on 1", "#555555"), new(2, "2x: both threads fully used", "#999999")],
            Categories: rows.Select(r => r.Workload).ToList());
        return ChartFile.Save(Path.Combine(Path.GetFullPath(output), FileName), 1100, 480, panel);
    }
}
