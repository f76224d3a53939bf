using System.Collections.Generic;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.PolicyComparison;

/// <summary>Every measured run of one configuration: a workload at its sizes, on some workers, under one policy or the thread-pool baseline.</summary>
/// <param name="Workload">The workload's name.</param>
/// <param name="Sizes">Its sizes.</param>
/// <param name="Workers">Scheduler workers; 0 for the thread-pool baseline.</param>
/// <param name="Runner">The policy's <c>--policy</c> name, or <c>threadpool</c>.</param>
internal sealed record PolicyResult(string Workload, RunOptions Sizes, int Workers, string Runner)
{
    /// <summary>Gets the runs' wall times in milliseconds, across every pass.</summary>
    public List<double> ElapsedMs { get; } = [];

    /// <summary>Gets the runs' nanoseconds per message, across every pass.</summary>
    public List<double> NsPerMessage { get; } = [];

    /// <summary>Gets or sets a value indicating whether every run verified its result and none is missing.</summary>
    public bool Ok { get; set; } = true;

    /// <summary>Gets the median wall time, or NaN if no run succeeded.</summary>
    public double MedianMs => ElapsedMs.Count == 0 || !Ok ? double.NaN : Measurement.MedianOf(ElapsedMs);

    /// <summary>Gets the median nanoseconds per message, or NaN if no run succeeded.</summary>
    public double MedianNs => NsPerMessage.Count == 0 || !Ok ? double.NaN : Measurement.MedianOf(NsPerMessage);
}
