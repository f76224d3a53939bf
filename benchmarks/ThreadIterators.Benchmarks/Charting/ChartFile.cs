using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using ScottPlot;

namespace ThreadIterators.Benchmarks.Charting;

/// <summary>
/// Renders chart panels, stacked top to bottom, into one PNG with ScottPlot. ScottPlot has no logarithmic axis: a
/// log axis here plots the logarithms and labels its ticks with the values they stand for.
/// </summary>
internal static class ChartFile
{
    private static readonly string[] s_palette = ["#1f4e9c", "#16a085", "#c0392b", "#e67e22", "#8e44ad", "#7f8c8d"];

    /// <summary>A colour for the <paramref name="index"/>th line of a panel whose lines need no fixed colours.</summary>
    public static string Color(int index) => s_palette[index % s_palette.Length];

    /// <summary>
    /// Draws <paramref name="panels"/> into <paramref name="path"/> (<paramref name="width"/> pixels wide, each panel
    /// <paramref name="panelHeight"/> high) and returns the path. Throws <see cref="InvalidOperationException"/> if a
    /// panel has nothing to draw, or nothing was written.
    /// </summary>
    public static string Save(string path, int width, int panelHeight, params ChartPanel[] panels)
    {
        ArgumentOutOfRangeException.ThrowIfZero(panels.Length);
        ChartFont.Install();
        var plots = panels.Select(Build).ToList();
        var multiplot = new Multiplot();
        multiplot.Reset(plots[0]);
        foreach (var plot in plots.Skip(1))
        {
            multiplot.AddPlot(plot);
        }

        multiplot.SavePng(path, width, panelHeight * panels.Length);
        if (!File.Exists(path) || new FileInfo(path).Length == 0)
        {
            throw new InvalidOperationException($"ScottPlot wrote no chart to {path}.");
        }

        return path;
    }

    private static Plot Build(ChartPanel panel)
    {
        var plot = new Plot();
        plot.Title(panel.Title, size: 15);
        plot.XLabel(panel.XLabel, size: 13);
        plot.YLabel(panel.YLabel, size: 13);
        var xs = new List<double>();
        var ys = new List<double>();
        var seriesIndex = -1;
        foreach (var series in panel.Series)
        {
            seriesIndex++;
            var points = series.Points
                .Where(p => double.IsFinite(p.X) && double.IsFinite(p.Y) && (panel.LogXBase == 0 || p.X > 0) && (panel.LogYBase == 0 || p.Y > 0))
                .Select(p => (X: Scale(p.X, panel.LogXBase), Y: Scale(p.Y, panel.LogYBase)))
                .ToArray();
            if (points.Length == 0)
            {
                continue;
            }

            if (panel.Categories is null)
            {
                var line = plot.Add.Scatter(points.Select(p => p.X).ToArray(), points.Select(p => p.Y).ToArray());
                line.LegendText = series.Label;
                line.Color = ScottPlot.Color.FromHex(series.Color);
                line.LineWidth = 2;
                line.MarkerSize = 8;
                line.MarkerShape = series.Marker ? MarkerShape.FilledCircle : MarkerShape.FilledSquare;
            }
            else
            {
                AddBars(plot, panel, series, seriesIndex, points);
            }

            xs.AddRange(points.Select(p => p.X));
            ys.AddRange(points.Select(p => p.Y));
        }

        if (xs.Count == 0)
        {
            throw new InvalidOperationException($"the chart panel '{panel.Title}' has no point to draw.");
        }

        foreach (var level in panel.Levels ?? [])
        {
            var rule = plot.Add.HorizontalLine(Scale(level.Y, panel.LogYBase));
            rule.LegendText = level.Label;
            rule.Color = ScottPlot.Color.FromHex(level.Color);
            rule.LineWidth = 1.5f;
            rule.LinePattern = LinePattern.Dashed;
            ys.Add(Scale(level.Y, panel.LogYBase));
        }

        if (panel.Categories is { } categories)
        {
            plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(
                Enumerable.Range(0, categories.Count).Select(i => (double)i).ToArray(), [.. categories]);
            plot.Axes.SetLimitsX(-0.6, categories.Count - 0.4);
        }
        else if (panel.LogXBase != 0)
        {
            plot.Axes.Bottom.TickGenerator = LogTicks(xs.Min(), xs.Max(), panel.LogXBase);
        }

        if (panel.LogYBase != 0)
        {
            plot.Axes.Left.TickGenerator = LogTicks(ys.Min(), ys.Max(), panel.LogYBase);
        }
        else
        {
            // Ratios and throughputs read against zero; a range that starts elsewhere exaggerates differences.
            plot.Axes.SetLimitsY(0, ys.Max() * 1.1);
        }

        if (panel.LegendOutside)
        {
            plot.ShowLegend(Edge.Right);
        }
        else
        {
            plot.ShowLegend(Alignment.UpperLeft);
        }

        plot.Legend.FontSize = 12;
        return plot;
    }

    /// <summary>
    /// Draws one series of a bar chart: its bar in each group, side by side with the other series' bars in the order
    /// of the panel's series (<paramref name="index"/> is the series' place there), together 80% of a group's width.
    /// </summary>
    private static void AddBars(Plot plot, ChartPanel panel, ChartSeries series, int index, (double X, double Y)[] points)
    {
        var width = 0.8 / panel.Series.Count;
        var color = ScottPlot.Color.FromHex(series.Color);
        var bars = points.Select(p => new Bar
        {
            Position = p.X - 0.4 + (width * (index + 0.5)),
            Value = p.Y,
            Size = width * 0.9,
            FillColor = color,
            LineWidth = 0,
        }).ToArray();
        var plotted = plot.Add.Bars(bars);
        plotted.LegendText = series.Label;
    }

    private static double Scale(double value, double logBase) => logBase == 0 ? value : Math.Log(value, logBase);

    /// <summary>
    /// Ticks at the whole powers of the base the data spans, labelled with their values; where the data spans less
    /// than two powers of ten, also at 2 and 5 times them, so a short axis still has labels to read.
    /// </summary>
    private static ScottPlot.TickGenerators.NumericManual LogTicks(double min, double max, double logBase)
    {
        var ticks = new ScottPlot.TickGenerators.NumericManual();
        var multiples = logBase == 10 && max - min < 2 ? new[] { 1.0, 2, 5 } : [1.0];
        for (var power = Math.Floor(min); power <= Math.Ceiling(max); power++)
        {
            foreach (var multiple in multiples)
            {
                var value = Math.Pow(logBase, power) * multiple;
                ticks.AddMajor(Math.Log(value, logBase), value.ToString(value < 1 ? "0.###" : "#,0", CultureInfo.InvariantCulture));
            }
        }

        return ticks;
    }
}
