using System.Collections.Generic;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>The runs of one case on both sides, and what went wrong in any of them.</summary>
internal sealed class CaseResult(ComparisonCase comparisonCase)
{
    private readonly HashSet<string> _failedSides = [];

    public ComparisonCase Case { get; } = comparisonCase;

    public List<RunRecord> Ours { get; } = [];

    public List<RunRecord> Erlang { get; } = [];

    /// <summary>Gets the runs of the .NET peers, by implementation name; empty unless the case runs them.</summary>
    public Dictionary<string, List<RunRecord>> Peers { get; } = [];

    /// <summary>Gets the failed runs of either side: a wrong result, a crash or a mismatch between the sides' parameters.</summary>
    public List<string> Failures { get; } = [];

    /// <summary>Gets the failed runs of the peers, kept apart so that they do not turn the sides' verdicts into misses.</summary>
    public List<string> PeerFailures { get; } = [];

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

    /// <summary>Gets the runs of <paramref name="implementation"/>: ours, Erlang's or a peer's (created on first use).</summary>
    public List<RunRecord> RunsOf(string implementation) => implementation switch
    {
        Implementation.GreenThreads => Ours,
        "erlang" => Erlang,
        _ => Peers.TryGetValue(implementation, out var runs) ? runs : Peers[implementation] = [],
    };

    /// <summary>Gets the median elapsed milliseconds of <paramref name="implementation"/>'s runs, or NaN if it has none or one failed.</summary>
    public double MedianOf(string implementation) =>
        _failedSides.Contains(implementation) ? double.NaN : Median(RunsOf(implementation), r => r.ElapsedMs);

    /// <summary>Records a failed run of <paramref name="side"/>: among the sides' failures, or the peers'.</summary>
    public void Fail(string side, string message)
    {
        _failedSides.Add(side);
        (IsPeer(side) ? PeerFailures : Failures).Add($"{side}{message}");
    }

    private static bool IsPeer(string side) => side is not (Implementation.GreenThreads or "erlang");

    private double Measured(RunRecord run) => Case.Workload == ComparisonCase.Footprint ? run.Value : run.ElapsedMs;

    private static double Median(List<RunRecord> runs, System.Func<RunRecord, double> value) =>
        runs.Count == 0 ? double.NaN : Measurement.MedianOf(runs.Select(value));
}
