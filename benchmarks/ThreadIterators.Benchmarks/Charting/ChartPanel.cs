using System.Collections.Generic;

namespace ThreadIterators.Benchmarks.Charting;

/// <summary>
/// One panel of a chart: lines over two axes, each either linear or logarithmic; or, with
/// <paramref name="Categories"/>, groups of bars, one group per category and one bar per series.
/// </summary>
/// <param name="Title">Its title, drawn above it.</param>
/// <param name="XLabel">The horizontal axis' label.</param>
/// <param name="YLabel">The vertical axis' label.</param>
/// <param name="Series">Its lines.</param>
/// <param name="LogXBase">The horizontal axis' logarithm base, or 0 for a linear axis.</param>
/// <param name="LogYBase">The vertical axis' logarithm base, or 0 for a linear axis starting at 0.</param>
/// <param name="Levels">Horizontal reference lines.</param>
/// <param name="Categories">
/// The labels of a bar chart's groups, or null for lines. A series' point (i, y) is then its bar in group i.
/// </param>
/// <param name="LegendOutside">Whether the legend stands right of the plot, where it hides no bar or line.</param>
internal sealed record ChartPanel(
    string Title,
    string XLabel,
    string YLabel,
    IReadOnlyList<ChartSeries> Series,
    double LogXBase = 0,
    double LogYBase = 0,
    IReadOnlyList<ChartLevel>? Levels = null,
    IReadOnlyList<string>? Categories = null,
    bool LegendOutside = false);
