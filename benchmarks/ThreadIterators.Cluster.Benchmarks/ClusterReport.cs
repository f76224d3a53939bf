using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using ThreadIterators.Benchmarks.Charting;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>Writes <c>cluster-comparison.md</c> and its chart from what the contenders measured.</summary>
internal static class ClusterReport
{
    public const string ChartName = "cluster-comparison.png";

    private const string Green = "green threads on Orleans";

    public static string Write(ClusterPlan plan, IReadOnlyList<ContenderResults> results, string output)
    {
        var culture = CultureInfo.InvariantCulture;
        var text = new StringBuilder();
        text.AppendLine("# Across two nodes: green threads on Orleans, raw Orleans, Akka.Remote, Proto.Remote and Erlang distribution");
        text.AppendLine();
        text.AppendLine(culture, $"Written by `{plan.CommandLine}`.");
        text.AppendLine("Each contender runs on two nodes on loopback TCP, each node an OS process of its own (for the .NET contenders,");
        text.AppendLine("the first node is the comparison's own process), so every message crosses the network stack. The contenders take");
        text.AppendLine(culture, $"turns, their order rotating run by run; each figure is the median of the runs' figures ({plan.Runs} run{(plan.Runs == 1 ? string.Empty : "s")}).");
        text.AppendLine();
        text.AppendLine(culture, $"- Machine: {Field("/proc/cpuinfo", "model name") ?? "unknown"}, {Environment.ProcessorCount} cores, {Environment.OSVersion}; .NET {Environment.Version}.");
        foreach (var result in results)
        {
            text.AppendLine(culture, $"- {result.Name}: {result.Version ?? "did not start"}{(result.Settings is { } settings ? $"; {settings}" : string.Empty)}.");
        }

        text.AppendLine(culture, $"- Round trip: {plan.Pings:N0} sequential round trips from a process on the first node to an echo process on the second, which sends the number back to the sender (raw Orleans: `await grain.Ping(n)`).");
        text.AppendLine(culture, $"- Stream: {plan.StreamOne:N0} messages at a window of 1, and {plan.StreamMany:N0} at a window of 1,000, one way from the first node to a sink on the second: every 1,000th (or every) message asks the sink for an acknowledgement, which the sender waits for. The sink checks that each message is the next in order, and the sender fails the run if one was lost, repeated or out of order (raw Orleans, which does not order calls in flight together: that none was lost or repeated). CPU is the time of every node's process over the stream, per message.");
        text.AppendLine(culture, $"- Ring: forwarders placed on the two nodes in turn, so that every hop crosses; one token travels {plan.RingHops:N0} hops round rings of {string.Join(", ", plan.RingSizes.Select(s => s.ToString("N0", culture)))} forwarders. Building the ring is not timed.");
        text.AppendLine(culture, $"- Node-down: a third node holding one process is started, {plan.Watchers:N0} watchers on the first node watch that process with the runtime's own monitors (raw Orleans, which has none: the cluster's membership updates), and the third node's OS process is killed; the time runs from the kill to the last watcher hearing of it.");
        text.AppendLine();
        text.AppendLine("| contender | round trip p50 (µs) | p99 (µs) | stream, window 1 (msg/s) | CPU (µs/msg) | stream, window 1,000 (msg/s) | CPU (µs/msg) | "
            + string.Join(" | ", plan.RingSizes.Select(s => $"ring of {s.ToString("N0", culture)} (hops/s)")) + " | node-down (ms) |");
        text.AppendLine("|---|---:|---:|---:|---:|---:|---:|" + string.Concat(plan.RingSizes.Select(_ => "---:|")) + "---:|");
        foreach (var result in results)
        {
            if (result.Runs.Count == 0)
            {
                text.AppendLine(culture, $"| {result.Name} | failed: {result.Failure} |");
                continue;
            }

            var rings = string.Join(" | ", plan.RingSizes.Select(s => Median(result, r => r.RingHopsPerSecond.GetValueOrDefault(s, double.NaN)).ToString("N0", culture)));
            text.AppendLine(culture, $"| {result.Name} | {Median(result, r => r.P50):F1} | {Median(result, r => r.P99):F1} | {Median(result, r => r.StreamOne):N0} | {Median(result, r => r.CpuOne):F1} | {Median(result, r => r.StreamMany):N0} | {Median(result, r => r.CpuMany):F2} | {rings} | {Median(result, r => r.NodeDown):N0} (max {result.Runs.Max(r => r.NodeDown):N0}) |");
        }

        text.AppendLine();
        if (TryChart(plan, results, output) is { } chart)
        {
            text.AppendLine(culture, $"![the figures above, drawn]({Path.GetFileName(chart)})");
            text.AppendLine();
        }

        text.AppendLine("## Verdicts");
        text.AppendLine();
        foreach (var verdict in Verdicts(plan, results))
        {
            text.AppendLine(culture, $"- {verdict}");
        }

        foreach (var failed in results.Where(r => r.Failure is not null))
        {
            text.AppendLine(culture, $"- {failed.Name} failed ({failed.Failure}); its figures are from the runs before that, if any.");
        }

        return text.ToString();
    }

    private static IEnumerable<string> Verdicts(ClusterPlan plan, IReadOnlyList<ContenderResults> results)
    {
        var culture = CultureInfo.InvariantCulture;
        var green = results.FirstOrDefault(r => r.Name == Green && r.Runs.Count > 0);
        if (green is null)
        {
            yield return "No verdict: green threads on Orleans did not complete a run.";
            yield break;
        }

        ContenderResults? Peer(string name) => results.FirstOrDefault(r => r.Name == name && r.Runs.Count > 0);
        string Met(bool met) => met ? "met" : "missed";

        if (Peer("Proto.Remote") is { } proto)
        {
            var ratio = Median(green, r => r.StreamMany) / Median(proto, r => r.StreamMany);
            yield return string.Create(culture, $"Stream at window 1,000, at least 2x Proto.Remote's messages per second: {Met(ratio >= 2)}, {ratio:F2}x.");
        }

        if (Peer("Erlang distribution") is { } erlang)
        {
            var ratio = Median(green, r => r.StreamMany) / Median(erlang, r => r.StreamMany);
            yield return string.Create(culture, $"Stream at window 1,000, at least 5x Erlang distribution's messages per second: {Met(ratio >= 5)}, {ratio:F2}x.");
            var rings = plan.RingSizes.Select(s => (Size: s, Ratio: Median(green, r => r.RingHopsPerSecond.GetValueOrDefault(s, double.NaN)) / Median(erlang, r => r.RingHopsPerSecond.GetValueOrDefault(s, double.NaN)))).ToList();
            yield return string.Create(culture, $"Ring across two nodes faster than Erlang distribution at every size: {Met(rings.All(r => r.Ratio > 1))}, {string.Join(", ", rings.Select(r => string.Create(culture, $"{r.Ratio:F2}x at {r.Size:N0}")))} (green hops per second over Erlang's).");
        }

        if (Peer("raw Orleans") is { } orleans)
        {
            var ratio = Median(green, r => r.P50) / Median(orleans, r => r.P50);
            yield return string.Create(culture, $"Sequential round trip within 1.2x of a raw Orleans grain call: {Met(ratio <= 1.2)}, {ratio:F2}x at p50.");
        }

        var bound = (Contenders.OnOrleans.BenchSilo.ProbeTimeout * Contenders.OnOrleans.BenchSilo.MissedProbes) + TimeSpan.FromSeconds(1);
        var worst = green.Runs.Max(r => r.NodeDown);
        yield return string.Create(culture, $"Node-down heard by every watcher within Orleans' membership probe period ({Contenders.OnOrleans.BenchSilo.MissedProbes} probes of {Contenders.OnOrleans.BenchSilo.ProbeTimeout.TotalSeconds:0.#} s) plus 1 s, {bound.TotalMilliseconds:N0} ms, and none twice: {Met(worst <= bound.TotalMilliseconds)}, {worst:N0} ms at worst.");
        yield return string.Create(culture, $"No message lost, repeated or reordered in any stream of a run without a fault: {Met(green.Failure is null)} for green threads on Orleans ({green.Runs.Count} runs, {(long)green.Runs.Count * (plan.StreamOne + plan.StreamMany):N0} messages checked in order by the sink).");
    }

    private static string? TryChart(ClusterPlan plan, IReadOnlyList<ContenderResults> results, string output)
    {
        var measured = results.Where(r => r.Runs.Count > 0).ToList();
        if (measured.Count == 0)
        {
            return null;
        }

        ChartSeries Series(ContenderResults result, int index, IEnumerable<double> values) =>
            new(result.Name, values.Select((v, i) => ((double)i, v)).ToList(), ChartFile.Color(index));

        List<ChartSeries> Each(Func<ContenderResults, IEnumerable<double>> values) =>
            measured.Select((r, i) => Series(r, i, values(r))).ToList();

        return ChartFile.Save(
            Path.Combine(Path.GetFullPath(output), ChartName),
            1100,
            420,
            new ChartPanel("Sequential round trip (lower is better)", string.Empty, "µs (log)", Each(r => [Median(r, x => x.P50), Median(r, x => x.P99)]), LogYBase: 10, Categories: ["p50", "p99"], LegendOutside: true),
            new ChartPanel("One-way stream (higher is better)", string.Empty, "messages/s (log)", Each(r => [Median(r, x => x.StreamOne), Median(r, x => x.StreamMany)]), LogYBase: 10, Categories: ["window 1", "window 1,000"], LegendOutside: true),
            new ChartPanel("Ring across two nodes (higher is better)", "forwarders", "hops/s (log)", Each(r => plan.RingSizes.Select(s => Median(r, x => x.RingHopsPerSecond.GetValueOrDefault(s, double.NaN)))), LogYBase: 10, Categories: [.. plan.RingSizes.Select(s => s.ToString("N0", CultureInfo.InvariantCulture))], LegendOutside: true),
            new ChartPanel("Node-down: kill to last watcher (lower is better)", string.Empty, "ms (log)", Each(r => [Median(r, x => x.NodeDown)]), LogYBase: 10, Categories: [string.Create(CultureInfo.InvariantCulture, $"{plan.Watchers:N0} watchers")], LegendOutside: true));
    }

    private static double Median(ContenderResults result, Func<RunRow, double> figure)
    {
        var sorted = result.Runs.Select(figure).Where(double.IsFinite).Order().ToArray();
        return sorted.Length == 0 ? double.NaN
            : sorted.Length % 2 == 1 ? sorted[sorted.Length / 2]
            : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private static string? Field(string file, string key) =>
        File.Exists(file) ? File.ReadLines(file).FirstOrDefault(l => l.StartsWith(key, StringComparison.Ordinal))?.Split(':', 2)[1].Trim() : null;
}
