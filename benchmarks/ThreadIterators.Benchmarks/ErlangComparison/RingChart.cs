using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>
/// The ring grid as a chart: time against N on log-log axes for both sides on 1 and 2 OS threads, and below it
/// how many times faster ThreadIterators is. Drawn by gnuplot, because the package mirror this project builds from
/// serves no .NET plotting library (ScottPlot, OxyPlot, Plotly.NET and SkiaSharp are all absent).
/// </summary>
internal static class RingChart
{
    /// <summary>The chart's file name in the output folder.</summary>
    public const string FileName = "erlang-comparison-ring.png";

    /// <summary>
    /// Writes the data and the gnuplot script next to each other in a temporary folder, renders the PNG into
    /// <paramref name="output"/> and returns its path. Throws <see cref="InvalidOperationException"/> if there is
    /// nothing to draw or gnuplot fails.
    /// </summary>
    public static string Write(string gnuplot, IReadOnlyList<CaseResult> results, string output)
    {
        var ring = results.Where(r => r.Case.Workload == "ring" && r.Complete).ToList();
        if (ring.Count == 0)
        {
            throw new InvalidOperationException("no ring case completed on both sides");
        }

        var sizes = ring.Select(r => r.Case.Sizes.N).Distinct().Order().ToList();
        var data = new StringBuilder("# n erlang_1 threaditerators_1 erlang_2 threaditerators_2 (median ms; NaN where a case failed)\n");
        foreach (var n in sizes)
        {
            data.Append(n.ToString(CultureInfo.InvariantCulture));
            foreach (var workers in ComparisonPlan.Workers)
            {
                var result = ring.FirstOrDefault(r => r.Case.Sizes.N == n && r.Case.Workers == workers);
                data.Append(CultureInfo.InvariantCulture, $" {result?.ErlangMedian ?? double.NaN:R} {result?.OurMedian ?? double.NaN:R}");
            }

            data.Append('\n');
        }

        var chart = Path.Combine(Path.GetFullPath(output), FileName);
        var messages = ring.FirstOrDefault()?.Case.Sizes.M ?? 0;
        Gnuplot.Render(gnuplot, data.ToString(), dataFile => $$"""
            set terminal pngcairo size 1000,900 font "sans,11"
            set output '{{chart}}'
            set datafile missing 'NaN'
            set multiplot layout 2,1 title "Ring, M = {{messages}} messages through N forwarders: median of each side, same machine, same run"
            set logscale xy 2
            set logscale y 10
            set format x "%.0f"
            set xlabel "N (forwarders)"
            set ylabel "time (ms), log scale"
            set key top left
            set grid
            plot '{{dataFile}}' using 1:2 with linespoints lw 2 pt 7 lc rgb "#c0392b" title "Erlang, 1 scheduler", \
                 '' using 1:4 with linespoints lw 2 pt 5 lc rgb "#e67e22" title "Erlang, 2 schedulers", \
                 '' using 1:3 with linespoints lw 2 pt 7 lc rgb "#1f4e9c" title "ThreadIterators, 1 worker", \
                 '' using 1:5 with linespoints lw 2 pt 5 lc rgb "#16a085" title "ThreadIterators, 2 workers"
            unset logscale y
            set yrange [0:*]
            set ylabel "Erlang time / ThreadIterators time"
            set key outside below horizontal
            plot '{{dataFile}}' using 1:($2/$3) with linespoints lw 2 pt 7 lc rgb "#1f4e9c" title "1 OS thread", \
                 '' using 1:($4/$5) with linespoints lw 2 pt 5 lc rgb "#16a085" title "2 OS threads", \
                 4 with lines dt 2 lc rgb "#555555" title "4x (the target for N >= 1024)", \
                 1 with lines dt 3 lc rgb "#999999" title "1x"
            unset multiplot
            """, chart);
        return chart;
    }
}
