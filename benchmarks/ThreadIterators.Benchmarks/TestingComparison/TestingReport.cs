using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using ThreadIterators.Testing;

namespace ThreadIterators.Benchmarks.TestingComparison;

/// <summary>What a <c>testing</c> run measured, with the verdicts on the targets.</summary>
/// <param name="Settings">What was measured.</param>
/// <param name="Rows">One per program and strategy.</param>
/// <param name="Machine">The machine, for the record.</param>
internal sealed record TestingReport(TestingSettings Settings, IReadOnlyList<TestingRow> Rows, string Machine)
{
    /// <summary>How many times Coyote's executions per second ours must reach.</summary>
    public const double RateTarget = 10;

    /// <summary>Renders the table and verdicts.</summary>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine(Invariant($"Machine: {Machine}. Iterations to the bug: median (range) over {Settings.Seeds} seeds, at most {Settings.Iterations:N0} each; executions/s: fixed program, median of {Settings.Rounds} rounds of {Settings.OursRuns:N0} (ours) and {Settings.CoyoteRuns:N0} (Coyote) iterations."));
        text.AppendLine();
        text.AppendLine("| bug | strategy | iterations to bug, ours | Coyote | executions/s, ours | Coyote | ratio |");
        text.AppendLine("|---|---|---:|---:|---:|---:|---:|");
        foreach (var row in Rows)
        {
            text.AppendLine(Invariant($"| {row.Program} | {Name(row.Strategy)} | {ToBug(row.OursToBug)} | {ToBug(row.CoyoteToBug)} | {TestingRow.MedianRate(row.OursRates):N0} | {TestingRow.MedianRate(row.CoyoteRates):N0} | {row.RateRatio:F1}x |"));
        }

        text.AppendLine();
        foreach (var program in Rows.GroupBy(r => r.Program))
        {
            var found = program.Any(r => r.OursToBug.Any(i => i is { } n && n <= 1_000));
            var iterations = program.All(r => r.IterationsMet);
            var rate = program.All(r => r.RateRatio >= RateTarget);
            text.AppendLine(Invariant($"- {program.Key}: found within 1,000 iterations {Verdict(found)}; at most Coyote's median iterations under each strategy {Verdict(iterations)}; at least {RateTarget:F0}x Coyote's executions/s {Verdict(rate)} ({string.Join(", ", program.Select(r => $"{Name(r.Strategy)} {r.RateRatio:F1}x"))})."));
        }

        foreach (var failure in Rows.SelectMany(r => r.Failures.Select(f => $"{r.Program}, {Name(r.Strategy)}: {f}")))
        {
            text.AppendLine(Invariant($"- FAILED: {failure}"));
        }

        return text.ToString();
    }

    private static string ToBug(IReadOnlyList<int?> iterations)
    {
        var median = TestingRow.MedianIterations(iterations);
        var found = iterations.Where(i => i.HasValue).Select(i => i!.Value).ToList();
        var missed = iterations.Count - found.Count;
        var range = found.Count == 0 ? "" : Invariant($" ({found.Min()}-{found.Max()})");
        var misses = missed == 0 ? "" : Invariant($", {missed} of {iterations.Count} not found");
        return (median is { } m ? Invariant($"{m:0.#}") : "not found") + range + misses;
    }

    private static string Name(ExplorationStrategy strategy) => strategy == ExplorationStrategy.Pct ? "PCT" : "random";

    private static string Verdict(bool met) => met ? "**met**" : "**missed**";

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
