using System.Collections.Generic;
using System.Linq;
using ThreadIterators.Testing;

namespace ThreadIterators.Benchmarks.TestingComparison;

/// <summary>One program under one strategy, measured on both sides in the same run.</summary>
/// <param name="Program">The bug's name.</param>
/// <param name="Strategy">Random, or PCT with the same depth on both sides.</param>
/// <param name="OursToBug">Iterations our exploration needed to find the bug, one per seed; null where it did not.</param>
/// <param name="CoyoteToBug">The same for Coyote's testing engine.</param>
/// <param name="OursRates">Executions per second of the fixed program, one per round.</param>
/// <param name="CoyoteRates">The same for Coyote.</param>
/// <param name="Failures">Fixed programs that failed, and buggy ones whose failure could not be replayed: each must be empty.</param>
internal sealed record TestingRow(
    string Program,
    ExplorationStrategy Strategy,
    IReadOnlyList<int?> OursToBug,
    IReadOnlyList<int?> CoyoteToBug,
    IReadOnlyList<double> OursRates,
    IReadOnlyList<double> CoyoteRates,
    IReadOnlyList<string> Failures)
{
    /// <summary>Gets the median iterations to the bug; a seed that did not find it counts as more than any that did.</summary>
    public static double? MedianIterations(IReadOnlyList<int?> iterations)
    {
        var sorted = iterations.Select(i => i ?? int.MaxValue).Order().ToList();
        var middle = sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : Mid(sorted[(sorted.Count / 2) - 1], sorted[sorted.Count / 2]);
        return middle >= int.MaxValue ? null : middle;

        static double Mid(double a, double b) => a >= int.MaxValue || b >= int.MaxValue ? int.MaxValue : (a + b) / 2;
    }

    /// <summary>Gets the median of the rates.</summary>
    public static double MedianRate(IReadOnlyList<double> rates)
    {
        var sorted = rates.Order().ToList();
        return sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }

    /// <summary>Gets a value indicating whether ours needed at most Coyote's median iterations (ours found it and Coyote did not, or both found it).</summary>
    public bool IterationsMet => MedianIterations(OursToBug) is { } ours && (MedianIterations(CoyoteToBug) is not { } coyote || ours <= coyote);

    /// <summary>Gets our executions per second over Coyote's, medians of the rounds.</summary>
    public double RateRatio => MedianRate(OursRates) / MedianRate(CoyoteRates);
}
