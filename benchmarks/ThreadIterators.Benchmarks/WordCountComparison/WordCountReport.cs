using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using WordCount;

namespace ThreadIterators.Benchmarks.WordCountComparison;

/// <summary>What a <c>wordcount</c> run measured: medians per variant and consumer count, and the verdicts on the targets.</summary>
/// <param name="Dump">The corpus.</param>
/// <param name="Reference">The single-threaded counts every run was checked against.</param>
/// <param name="Passes">Times the producer read the corpus per run.</param>
/// <param name="Workers">The scheduler's OS threads.</param>
/// <param name="Runs">Runs per configuration.</param>
/// <param name="ConsumerCounts">The consumer counts measured.</param>
/// <param name="Variants">The variants measured.</param>
/// <param name="SingleThreadSeconds">Median of the single-threaded count.</param>
/// <param name="ParseSeconds">Median of reading the pages without counting them: the producer's own work.</param>
/// <param name="Seconds">Median seconds by variant name and consumer count.</param>
/// <param name="Mismatches">Runs whose counts differed from the reference.</param>
/// <param name="Machine">The machine, for the record.</param>
internal sealed record WordCountReport(
    string Dump,
    WordCounts Reference,
    int Passes,
    int Workers,
    int Runs,
    IReadOnlyList<int> ConsumerCounts,
    IReadOnlyList<Variant> Variants,
    double SingleThreadSeconds,
    double ParseSeconds,
    IReadOnlyDictionary<(string Variant, int Consumers), double> Seconds,
    IReadOnlyList<string> Mismatches,
    string Machine)
{
    /// <summary>How close batched pull must come to push: within 5%.</summary>
    public const double PullTolerance = 1.05;

    /// <summary>How much faster two consumers must be than one: 1.8 times.</summary>
    public const double TwoConsumerSpeedup = 1.8;

    /// <summary>The pull variants the pull target is about: batches of 10 or more.</summary>
    public static readonly string[] BatchedPulls = ["pull_10", "pull_20", "pull_50", "pull_cached"];

    /// <summary>The push variants (bounded and under flow control) batched pull is compared with.</summary>
    public static readonly string[] Pushes = ["push_rr", "push_sm", "push_bal", "flow_rr", "flow_sm", "flow_bal"];

    /// <summary>Gets a value indicating whether every run counted exactly what one thread counted.</summary>
    public bool AllCountsMatch => Mismatches.Count == 0;

    /// <summary>Gets the fastest push variant's median at a consumer count, if any was measured.</summary>
    public double? BestPush(int consumers) => Pushes.Select(p => Seconds.TryGetValue((p, consumers), out var s) ? s : (double?)null).Where(s => s.HasValue).Min();

    /// <summary>Renders the tables and verdicts.</summary>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine(Invariant($"Corpus: `{Dump}`, read {Passes} times per run: {Reference.Pages:N0} pages, {Reference.Total:N0} words."));
        text.AppendLine(Invariant($"Machine: {Machine}. Green threads on {Workers} workers; medians of {Runs} runs; single thread: {SingleThreadSeconds:F3} s, of which parsing alone: {ParseSeconds:F3} s."));
        text.AppendLine();
        text.AppendLine("Seconds (median):");
        text.AppendLine();
        AppendTable(text, (variant, consumers) => Seconds.TryGetValue((variant, consumers), out var s) ? Invariant($"{s:F3}") : "-");
        text.AppendLine();
        var first = ConsumerCounts.Min();
        text.AppendLine(Invariant($"Speedup over the same variant with {first} consumer(s):"));
        text.AppendLine();
        AppendTable(text, (variant, consumers) => Seconds.TryGetValue((variant, consumers), out var s) && Seconds.TryGetValue((variant, first), out var one) ? Invariant($"{one / s:F2}") : "-");
        text.AppendLine();
        text.AppendLine("Verdicts:");
        text.AppendLine();
        foreach (var line in Verdicts())
        {
            text.AppendLine("- " + line);
        }

        return text.ToString();
    }

    /// <summary>The targets, each met or missed with its figures.</summary>
    public IEnumerable<string> Verdicts()
    {
        var pullCells = (from consumers in ConsumerCounts
                         from pull in BatchedPulls
                         where Seconds.ContainsKey((pull, consumers)) && BestPush(consumers).HasValue
                         select (consumers, pull, ratio: Seconds[(pull, consumers)] / BestPush(consumers)!.Value)).ToList();
        if (pullCells.Count > 0)
        {
            var within = pullCells.Count(c => c.ratio <= PullTolerance);
            var worst = pullCells.MaxBy(c => c.ratio);
            yield return Invariant($"Pull with batches of 10 or more within 5% of the fastest push: {within} of {pullCells.Count} cells (worst {worst.pull} with {worst.consumers} consumers, {worst.ratio:F2}x): {(within == pullCells.Count ? "met" : "missed")}.");
        }

        var speedups = Variants.Where(v => Seconds.ContainsKey((v.Name, 1)) && Seconds.ContainsKey((v.Name, 2)))
            .Select(v => (v.Name, speedup: Seconds[(v.Name, 1)] / Seconds[(v.Name, 2)])).ToList();
        if (speedups.Count > 0)
        {
            var fast = speedups.Count(s => s.speedup >= TwoConsumerSpeedup);
            yield return Invariant($"2 consumers at least 1.8x as fast as 1: {fast} of {speedups.Count} variants ({string.Join(", ", speedups.Select(s => $"{s.Name} {s.speedup:F2}x"))}): {(fast == speedups.Count ? "met" : "missed")}.");
        }

        yield return AllCountsMatch
            ? Invariant($"Word counts identical to the single-threaded count in every run ({Seconds.Count * Runs + Runs} runs): met.")
            : Invariant($"Word counts differed from the single-threaded count in: {string.Join(", ", Mismatches)}: missed.");
    }

    private void AppendTable(StringBuilder text, Func<string, int, string> cell)
    {
        text.AppendLine("| consumers | " + string.Join(" | ", Variants.Select(v => v.Name)) + " |");
        text.AppendLine("|---:|" + string.Concat(Variants.Select(_ => "---:|")));
        foreach (var consumers in ConsumerCounts)
        {
            text.AppendLine(Invariant($"| {consumers} | ") + string.Join(" | ", Variants.Select(v => cell(v.Name, consumers))) + " |");
        }
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
