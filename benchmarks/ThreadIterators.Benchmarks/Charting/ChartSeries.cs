using System.Collections.Generic;

namespace ThreadIterators.Benchmarks.Charting;

/// <summary>One line of a chart panel.</summary>
/// <param name="Label">Its legend text.</param>
/// <param name="Points">Its points in data units; a point whose X or Y is not finite (a case that failed) is left out.</param>
/// <param name="Color">Its colour as #rrggbb.</param>
/// <param name="Marker">Whether its points are drawn as circles (true) or squares (false), so lines stay apart in grey print.</param>
internal sealed record ChartSeries(string Label, IReadOnlyList<(double X, double Y)> Points, string Color, bool Marker = true);
