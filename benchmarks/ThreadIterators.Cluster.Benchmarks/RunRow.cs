using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>One contender's figures in one run.</summary>
internal sealed class RunRow
{
    public double P50 { get; set; } = double.NaN;

    public double P99 { get; set; } = double.NaN;

    public double StreamOne { get; set; } = double.NaN;

    public double CpuOne { get; set; } = double.NaN;

    public double StreamMany { get; set; } = double.NaN;

    public double CpuMany { get; set; } = double.NaN;

    /// <summary>Gets the ring's hops per second, by ring size.</summary>
    public Dictionary<int, double> RingHopsPerSecond { get; } = [];

    /// <summary>Gets or sets the milliseconds from a node's kill to its last watcher hearing of it.</summary>
    public double NodeDown { get; set; } = double.NaN;

    public override string ToString() => string.Create(
        CultureInfo.InvariantCulture,
        $"round trip p50 {P50:F1} µs, p99 {P99:F1} µs; window 1: {StreamOne:N0} msg/s, {CpuOne:F1} µs CPU/msg; window 1,000: {StreamMany:N0} msg/s, {CpuMany:F2} µs CPU/msg; ring {string.Join(", ", RingHopsPerSecond.Select(r => $"{r.Key}: {r.Value:N0} hops/s"))}; node-down {NodeDown:F0} ms");
}
