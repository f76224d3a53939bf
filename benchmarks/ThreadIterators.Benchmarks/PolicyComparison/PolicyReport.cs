using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.QuickRunner;
using QuickCommandLine = ThreadIterators.Benchmarks.QuickRunner.CommandLine;

namespace ThreadIterators.Benchmarks.PolicyComparison;

/// <summary>The policy comparison's markdown: the grid with the best policy marked, the targets' verdicts, and the other workloads per policy.</summary>
internal static class PolicyReport
{
    /// <summary>Column titles of the policies, in <see cref="QuickCommandLine.PolicyNames"/> order.</summary>
    private static readonly Dictionary<string, string> s_titles = new()
    {
        ["workstealing"] = "work stealing",
        ["softaffinity"] = "soft affinity",
        ["dedicated"] = "dedicated",
        ["shared"] = "shared queue",
    };

    /// <summary>Writes the report, judging <paramref name="defaultPolicy"/> (the scheduler's default, unless a test says otherwise).</summary>
    public static string Write(PolicyPlan plan, IReadOnlyList<PolicyResult> results, string arguments, TimeSpan took, SchedulingPolicy? defaultPolicy = null, IReadOnlyList<string>? failures = null)
    {
        var policies = QuickCommandLine.PolicyNames.Keys.ToList();
        var defaultName = QuickCommandLine.NameOf(defaultPolicy ?? Scheduler.DefaultPolicy);
        var text = new StringBuilder();
        var runs = plan.Passes * plan.Runs;
        text.AppendLine(Invariant($"Measured with `dotnet run -c Release --project benchmarks/ThreadIterators.Benchmarks -- {arguments}` in {took.TotalMinutes:F0} minutes. Each configuration ran in {plan.Passes} fresh process(es), the policies in a rotated order, {plan.Runs} measured run(s) each time after {plan.WarmUpMilliseconds / 1000.0:F1} s of warm-up; the medians are of all {runs} run(s)."));
        text.AppendLine(Invariant($"Machine: {MachineInfo.Processor}, {MachineInfo.Memory}, {MachineInfo.OperatingSystem}, .NET {Environment.Version}. The default policy is {s_titles[defaultName]}."));
        text.AppendLine();

        var grid = results.Where(r => r.Workload == "cacheaffinity").ToList();
        var cells = plan.Grid;
        text.AppendLine(Invariant($"### Cache-affinity grid: median milliseconds for {(cells.Count > 0 ? cells[0].M : 0):N0} messages, {PolicyPlan.GridWorkers} workers"));
        text.AppendLine();
        text.AppendLine("Best policy in bold. \"Default vs best\": how much slower the default policy was than the best one. \"Pool / default\": the thread-pool baseline's time over the default's.");
        text.AppendLine();
        text.AppendLine($"| actors | state | accesses | {string.Join(" | ", policies.Select(p => s_titles[p]))} | thread pool | default vs best | pool / default |");
        text.AppendLine($"|---:|---:|---:|{string.Concat(policies.Select(_ => "---:|"))}---:|---:|---:|");
        var withinFive = new List<string>();
        var overFive = new List<string>();
        var poolMet = new List<string>();
        var poolMissed = new List<string>();
        var localityMet = new List<string>();
        var localityMissed = new List<string>();
        foreach (var cell in cells)
        {
            var medians = policies.ToDictionary(p => p, p => Find(grid, cell, PolicyPlan.GridWorkers, p));
            var pool = Find(grid, cell, 0, Implementation.ThreadPool);
            var ok = medians.Values.Where(v => !double.IsNaN(v)).ToList();
            var best = ok.Count == 0 ? double.NaN : ok.Min();
            var ours = medians[defaultName];
            var gap = ours / best - 1;
            var poolRatio = pool / ours;
            var name = Invariant($"{cell.Actors} actors, {Bytes(cell.State)}, {cell.Accesses} accesses");
            text.AppendLine(Invariant($"| {cell.Actors:N0} | {Bytes(cell.State)} | {cell.Accesses} | {string.Join(" | ", policies.Select(p => Cell(medians[p], medians[p] == best)))} | {Cell(pool, false)} | {Percent(gap)} | {Ratio(poolRatio)} |"));
            var bestName = medians.FirstOrDefault(m => m.Value == best).Key is { } key ? s_titles[key] : "none";
            (gap <= 0.05 ? withinFive : overFive).Add(Invariant($"{name}: {Percent(gap)} (best {bestName})"));
            if (cell.Actors >= 24)
            {
                (poolRatio >= 2 ? poolMet : poolMissed).Add(Invariant($"{name}: {Ratio(poolRatio)}"));
            }

            if (cell.Actors <= 24 && cell.State <= 32_000)
            {
                var workStealing = medians["workstealing"];
                (ours <= workStealing ? localityMet : localityMissed).Add(Invariant($"{name}: {ours:F1} ms against {workStealing:F1} ms ({Percent(ours / workStealing - 1)})"));
            }
        }

        text.AppendLine();
        text.AppendLine("### Targets");
        text.AppendLine();
        Verdict(text, "The default policy within 5% of the best policy in every cell", withinFive, overFive);
        Verdict(text, "At least 2x faster than the thread-pool baseline in every cell with 24 or more actors", poolMet, poolMissed);
        Verdict(text, "With 4 or 24 actors and at most 32 KB of state, the default at least as fast as work stealing", localityMet, localityMissed);

        text.AppendLine();
        text.AppendLine("### Other workloads: median nanoseconds per message");
        text.AppendLine();
        text.AppendLine($"| workload | sizes | workers | {string.Join(" | ", policies.Select(p => s_titles[p]))} | default vs best |");
        text.AppendLine($"|---|---|---:|{string.Concat(policies.Select(_ => "---:|"))}---:|");
        foreach (var (workload, sizes) in plan.Others)
        {
            foreach (var workers in plan.OtherWorkers)
            {
                var medians = policies.ToDictionary(p => p, p => results.FirstOrDefault(r => r.Workload == workload && r.Sizes == sizes && r.Workers == workers && r.Runner == p)?.MedianNs ?? double.NaN);
                var ok = medians.Values.Where(v => !double.IsNaN(v)).ToList();
                var best = ok.Count == 0 ? double.NaN : ok.Min();
                text.AppendLine(Invariant($"| {workload} | {PolicyCommand.Describe(workload, sizes)} | {workers} | {string.Join(" | ", policies.Select(p => Cell(medians[p], medians[p] == best)))} | {Percent(medians[defaultName] / best - 1)} |"));
            }
        }

        if (failures is { Count: > 0 })
        {
            text.AppendLine();
            text.AppendLine("### Processes that failed and were run again");
            text.AppendLine();
            foreach (var failure in failures)
            {
                text.AppendLine($"- {failure}");
            }
        }

        return text.ToString();
    }

    private static double Find(List<PolicyResult> grid, RunOptions cell, int workers, string runner) =>
        grid.FirstOrDefault(r => r.Sizes == cell && r.Workers == workers && r.Runner == runner)?.MedianMs ?? double.NaN;

    private static void Verdict(StringBuilder text, string target, List<string> met, List<string> missed)
    {
        var verdict = missed.Count == 0 ? "**met**" : "**missed**";
        text.AppendLine(Invariant($"- {target}: {verdict}; met in {met.Count} of {met.Count + missed.Count} cells."));
        foreach (var miss in missed)
        {
            text.AppendLine($"  - missed: {miss}");
        }
    }

    private static string Cell(double value, bool best) => double.IsNaN(value) ? "failed" : best ? Invariant($"**{value:F1}**") : Invariant($"{value:F1}");

    private static string Percent(double gap) => double.IsNaN(gap) ? "-" : gap <= 0 ? "best" : Invariant($"+{gap * 100:F0}%");

    private static string Ratio(double ratio) => double.IsNaN(ratio) ? "-" : Invariant($"{ratio:F1}x");

    private static string Bytes(long bytes) => bytes switch
    {
        >= 1_000_000 => Invariant($"{bytes / 1e6:0.#} MB"),
        >= 1_000 => Invariant($"{bytes / 1e3:0.#} KB"),
        _ => Invariant($"{bytes} B"),
    };

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
