namespace ThreadIterators.Benchmarks.Charting;

/// <summary>A horizontal reference line across a panel, such as a target ratio.</summary>
/// <param name="Y">Where, in data units.</param>
/// <param name="Label">Its legend text.</param>
/// <param name="Color">Its colour as #rrggbb.</param>
internal sealed record ChartLevel(double Y, string Label, string Color);
