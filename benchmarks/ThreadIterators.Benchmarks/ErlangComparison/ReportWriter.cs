using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>Renders the comparison as <c>docs/erlang-comparison.md</c>: machine, versions, commands, verdicts and tables.</summary>
internal static class ReportWriter
{
    /// <param name="chart">The chart's file name, or null if it could not be drawn.</param>
    public static string Write(IReadOnlyList<CaseResult> results, string erlangVersion, int runs, bool quick, string? chart, TimeSpan elapsed)
    {
        var text = new StringBuilder();
        Line(text, "# ThreadIterators against Erlang");
        Line(text);
        Line(text, $"Written by `dotnet run -c Release --project benchmarks/ThreadIterators.Benchmarks -- compare{(quick ? " --quick" : string.Empty)}{(runs == 3 ? string.Empty : $" --runs {runs}")}` on {DateTime.UtcNow:yyyy-MM-dd} (UTC), which took {elapsed.TotalMinutes:F1} minutes. The command rewrites this file and the chart; do not edit them by hand.");
        if (quick)
        {
            Line(text);
            Line(text, "**This is a `--quick` run at toy sizes, which checks the pipeline; its figures say nothing about either side.**");
        }

        Line(text);
        Line(text, "Both sides run the same workloads with the same sizes on the same number of OS threads, on this machine, in one run. Each side runs each case in a fresh process (a .NET process or an Erlang VM) that warms up at a tenth of the size (for 1.5 s on .NET, whose tiered JIT needs that long to promote the hot code; for 0.5 s on Erlang, whose JIT compiles each module as it loads) and then makes its measured runs, each timed inside the process from spawning the threads to the verified result. The sides alternate, swapping which goes first from one workload size to the next. Figures are medians of each side's runs; the ratio is Erlang's median over ours, so above 1 means ThreadIterators is faster (or smaller).");
        Line(text);
        Line(text, "## Machine and versions");
        Line(text);
        Line(text, $"- Processor: {MachineInfo.Processor}; memory {MachineInfo.Memory}");
        Line(text, $"- System: {MachineInfo.OperatingSystem}");
        Line(text, $"- .NET: {RuntimeInformation.FrameworkDescription}, Release build, workstation non-concurrent GC, tiered PGO");
        Line(text, $"- Erlang: {erlangVersion}{(MachineInfo.DebianPackageVersion("erlang-nox") is { } package ? $" (Debian erlang-nox {package})" : string.Empty)}, default VM flags except `+S` and `+P`");
        Line(text, $"- Runs: {runs} per side per case");
        Line(text);

        WriteTargets(text, results);
        WriteRing(text, results, chart);
        WriteWorkloads(text, results);
        WriteFootprint(text, results);
        WriteCommands(text, results, runs);
        WriteFailures(text, results);
        return text.ToString();
    }

    private static void WriteTargets(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        Line(text, "## Targets");
        Line(text);
        Line(text, "| target | measured (Erlang / ThreadIterators) | verdict |");
        Line(text, "|---|---|---|");
        var ring = results.Where(r => r.Case.Workload == "ring").ToList();
        Target(text, "Ring: faster than Erlang at every N, on the same OS thread count", ring, 1, worst: true);
        Target(text, "Ring: at least 4x faster at N >= 1024", ring.Where(r => r.Case.Sizes.N >= 1024).ToList(), 4, worst: true);
        Target(text, "ThreadRing: at least 6x faster", results.Where(r => r.Case.Workload == "threadring").ToList(), 6, worst: false);
        Target(text, "PingPong: at least 6x faster", results.Where(r => r.Case.Workload == "pingpong").ToList(), 6, worst: false);
        Target(text, "Skynet: at least 10x faster", results.Where(r => r.Case.Workload == "skynet").ToList(), 10, worst: false);
        Target(text, "Memory per parked thread: at most a tenth of Erlang's", results.Where(r => r.Case.Workload == ComparisonCase.Footprint).ToList(), 10, worst: false);
        Line(text);
    }

    /// <summary>One verdict: met only if every case reaches <paramref name="ratio"/>; a case that failed is a miss.</summary>
    private static void Target(StringBuilder text, string target, List<CaseResult> cases, double ratio, bool worst)
    {
        if (cases.Count == 0)
        {
            return;
        }

        var failed = cases.Where(c => !c.Complete).ToList();
        var met = failed.Count == 0 && cases.All(c => c.Ratio >= ratio);
        string measured;
        if (worst)
        {
            var lowest = cases.Where(c => c.Complete).MinBy(c => c.Ratio);
            var highest = cases.Where(c => c.Complete).MaxBy(c => c.Ratio);
            measured = lowest is null ? "no complete case" : string.Create(CultureInfo.InvariantCulture,
                $"lowest {lowest.Ratio:F1}x ({Where(lowest)}), highest {highest!.Ratio:F1}x ({Where(highest)})");
        }
        else
        {
            measured = string.Join("; ", cases.Select(c => c.Complete
                ? string.Create(CultureInfo.InvariantCulture, $"{c.Ratio:F1}x ({Where(c)})")
                : $"failed ({Where(c)})"));
        }

        var missed = cases.Where(c => c.Complete && c.Ratio < ratio).Select(Where).Concat(failed.Select(c => $"{Where(c)} failed")).ToList();
        Line(text, $"| {target} | {measured} | {(met ? "**met**" : $"**missed** ({string.Join(", ", missed)})")} |");
    }

    private static string Where(CaseResult result) => result.Case.Workload switch
    {
        "ring" => $"N = {result.Case.Sizes.N:N0}, {Threads(result.Case.Workers)}",
        ComparisonCase.Footprint => $"{result.Case.Sizes.N:N0} threads",
        _ => Threads(result.Case.Workers),
    };

    private static string Threads(int workers) => workers == 1 ? "1 OS thread" : $"{workers} OS threads";

    private static void WriteRing(StringBuilder text, IReadOnlyList<CaseResult> results, string? chart)
    {
        var ring = results.Where(r => r.Case.Workload == "ring").ToList();
        if (ring.Count == 0)
        {
            return;
        }

        Line(text, "## Ring grid");
        Line(text);
        Line(text, $"N forwarders in a line; a pump sends M = {ring[0].Case.Sizes.M} messages then a stop marker; the drain checks their order and counts them. N·M hops. Times are milliseconds for the whole run, spawning included.");
        Line(text);
        Line(text, chart is null
            ? "**No chart**: it could not be drawn (the command's output says why)."
            : $"![Ring: time against N, Erlang and ThreadIterators on 1 and 2 OS threads, with the ratio]({chart})");
        Line(text);
        Line(text, $"The chart is drawn by ScottPlot {typeof(ScottPlot.Plot).Assembly.GetName().Version?.ToString(3)} on SkiaSharp, with the DejaVu Sans typeface the benchmarks carry, so it needs no system package.");
        Line(text);
        var workers = ring.Select(r => r.Case.Workers).Distinct().Order().ToList();
        Line(text, "| N |" + string.Concat(workers.Select(w => $" Erlang {Threads(w)} | ThreadIterators {Threads(w)} | ratio | ns/hop (Erlang / ours) |")));
        Line(text, "|---:|" + string.Concat(workers.Select(_ => "---:|---:|---:|---:|")));
        foreach (var n in ring.Select(r => r.Case.Sizes.N).Distinct().Order())
        {
            var row = new StringBuilder(n.ToString("N0", CultureInfo.InvariantCulture));
            foreach (var w in workers)
            {
                var result = ring.FirstOrDefault(r => r.Case.Sizes.N == n && r.Case.Workers == w);
                row.Append(result is null
                    ? " | - | - | - | -"
                    : result.Complete
                        ? string.Create(CultureInfo.InvariantCulture, $" | {result.ErlangMedian:F1} | {result.OurMedian:F1} | {result.Ratio:F1}x | {result.ErlangPerMessage:F1} / {result.OurPerMessage:F1}")
                        : " | failed | failed | - | -");
            }

            Line(text, $"| {row} |");
        }

        Line(text);
    }

    private static void WriteWorkloads(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        var workloads = results.Where(r => r.Case.Workload is not "ring" and not ComparisonCase.Footprint).ToList();
        if (workloads.Count == 0)
        {
            return;
        }

        Line(text, "## The other workloads");
        Line(text);
        Line(text, "The same programs as the quick runner's (docs/benchmarks.md describes each); per message means per hop for the rings and per thread spawned for Skynet.");
        Line(text);
        Line(text, "| workload | size | OS threads | Erlang ms | ThreadIterators ms | Erlang ns/msg | ThreadIterators ns/msg | ratio |");
        Line(text, "|---|---|---:|---:|---:|---:|---:|---:|");
        foreach (var result in workloads)
        {
            var size = result.Case.Parameters;
            Line(text, result.Complete
                ? string.Create(CultureInfo.InvariantCulture, $"| {result.Case.Workload} | {size} | {result.Case.Workers} | {result.ErlangMedian:F1} | {result.OurMedian:F1} | {result.ErlangPerMessage:F1} | {result.OurPerMessage:F1} | {result.Ratio:F1}x |")
                : $"| {result.Case.Workload} | {size} | {result.Case.Workers} | failed | failed | - | - | - |");
        }

        Line(text);
    }

    private static void WriteFootprint(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        var footprints = results.Where(r => r.Case.Workload == ComparisonCase.Footprint).ToList();
        if (footprints.Count == 0)
        {
            return;
        }

        Line(text, "## Memory per parked thread");
        Line(text);
        Line(text, "Each side parks that many threads, each blocked on a receive from its own empty mailbox, and divides what they hold by their number. ThreadIterators: managed heap after a full collection, less the heap before (the iterator, the thread's handle and its mailbox). Erlang: `erlang:memory(processes)` after, less before (each process's control block, heap, stack and mailbox). Then each side wakes every thread with one message and checks that all of them received it.");
        Line(text);
        Line(text, "| threads | OS threads | Erlang bytes per process | ThreadIterators bytes per thread | ratio |");
        Line(text, "|---:|---:|---:|---:|---:|");
        foreach (var result in footprints)
        {
            Line(text, result.Complete
                ? string.Create(CultureInfo.InvariantCulture, $"| {result.Case.Sizes.N:N0} | {result.Case.Workers} | {result.ErlangMedian:F0} | {result.OurMedian:F0} | {result.Ratio:F1}x |")
                : $"| {result.Case.Sizes.N:N0} | {result.Case.Workers} | failed | failed | - |");
        }

        Line(text);
    }

    private static void WriteCommands(StringBuilder text, IReadOnlyList<CaseResult> results, int runs)
    {
        Line(text, "## The exact commands");
        Line(text);
        Line(text, "Every case runs these two command lines with its own sizes and OS thread count; the footprint runs once per process, `--runs` times. For example:");
        Line(text);
        Line(text, "```");
        foreach (var example in results.Where(r => r.Case.Workload == "ring").Take(1).Concat(results.Where(r => r.Case.Workload == ComparisonCase.Footprint).Take(1)))
        {
            Line(text, $"dotnet benchmarks/ThreadIterators.Benchmarks/bin/Release/net10.0/ThreadIterators.Benchmarks.dll {string.Join(' ', example.Case.OurArguments(runs))}");
            Line(text, ErlangRuntime.CommandLine(example.Case, runs));
        }

        Line(text, "```");
        Line(text);
        Line(text, "The Erlang programs are in `benchmarks/erlang/`, compiled by the comparison with `erlc +warnings_as_errors` into the build folder. `+P` is set to twice the processes a case needs, rounded up to a power of two and at least 1,048,576; the VM's other flags are its defaults.");
        Line(text);
    }

    private static void WriteFailures(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        var failures = results.SelectMany(r => r.Failures.Select(f => $"{r.Case.Label}, {Threads(r.Case.Workers)}: {f}")).ToList();
        if (failures.Count == 0)
        {
            return;
        }

        Line(text, "## Failed runs");
        Line(text);
        foreach (var failure in failures)
        {
            Line(text, $"- {failure.ReplaceLineEndings(" ")}");
        }

        Line(text);
    }

    private static void Line(StringBuilder text, string line = "") => text.Append(line).Append('\n');
}
