using System.Collections.Generic;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>The runs of one case on both sides, and what went wrong in any of them.</summary>
internal sealed class CaseResult(ComparisonCase comparisonCase)
{
    public ComparisonCase Case { get; } = comparisonCase;

    public List<RunRecord> Ours { get; } = [];

    public List<RunRecord> Erlang { get; } = [];

    /// <summary>Gets the failed runs: a wrong result, a crash or a mismatch between the sides' parameters.</summary>
    public List<string> Failures { get; } = [];

    /// <summary>Gets the median of our runs: elapsed milliseconds, or bytes per parked thread for the footprint.</summary>
    public double OurMedian => Median(Ours, Measured);

    /// <summary>Gets the median of Erlang's runs, in the same unit as <see cref="OurMedian"/>.</summary>
    public double ErlangMedian => Median(Erlang, Measured);

    /// <summary>Gets the median of our runs' nanoseconds per message (bytes per thread for the footprint).</summary>
    public double OurPerMessage => Median(Ours, r => r.Value);

    /// <summary>Gets the median of Erlang's runs' nanoseconds per message (bytes per process for the footprint).</summary>
    public double ErlangPerMessage => Median(Erlang, r => r.Value);

    /// <summary>Gets how many times faster (or smaller) our side is: Erlang's median over ours.</summary>
    public double Ratio => ErlangMedian / OurMedian;

    public bool Complete => Ours.Count > 0 && Erlang.Count > 0 && Failures.Count == 0;

    private double Measured(RunRecord run) => Case.Workload == ComparisonCase.Footprint ? run.Value : run.ElapsedMs;

    private static double Median(List<RunRecord> runs, System.Func<RunRecord, double> value) =>
        runs.Count == 0 ? double.NaN : Measurement.MedianOf(runs.Select(value));
}
