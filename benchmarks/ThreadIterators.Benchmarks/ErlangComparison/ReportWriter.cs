using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>Renders the comparison as <c>docs/erlang-comparison.md</c>: machine, versions, commands, verdicts and tables.</summary>
internal static class ReportWriter
{
    /// <summary>The speed-up from 1 to 2 OS threads below which a workload counts as slower on 2: 5% for noise.</summary>
    private const double NoSlower = 0.95;

    /// <summary>The workloads on which the peers' target asks for 5x rather than just faster.</summary>
    private static readonly HashSet<string> HopWorkloads = ["threadring", "pingpong", "skynet"];

    /// <param name="chart">The ring chart's file name, or null if it could not be drawn.</param>
    /// <param name="scalingChart">The scaling chart's file name, or null if it could not be drawn or no case ran the peers.</param>
    public static string Write(IReadOnlyList<CaseResult> results, string erlangVersion, int runs, bool quick, string? chart, string? scalingChart, TimeSpan elapsed)
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
        Line(text, $"- .NET peers: Akka.NET {Version(typeof(Akka.Actor.ActorSystem))}, Proto.Actor {Version(typeof(Proto.ActorSystem))}, and the async/await with channels baseline (tasks); each in a process whose thread pool is limited to the case's OS threads (docs/benchmarks.md gives their settings)");
        Line(text, $"- Runs: {runs} per side per case");
        Line(text);

        var scaling = ScalingRow.From(results);
        WriteTargets(text, results, scaling);
        WriteScaling(text, scaling, scalingChart);
        WriteRing(text, results, chart);
        WriteWorkloads(text, results);
        WriteFootprint(text, results);
        WriteCommands(text, results, runs);
        WriteFailures(text, results);
        return text.ToString();
    }

    private static void WriteTargets(StringBuilder text, IReadOnlyList<CaseResult> results, List<ScalingRow> scaling)
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
        if (scaling.Count > 0)
        {
            var slower = scaling.Where(row => !(row.Speedup(Implementation.GreenThreads) >= NoSlower)).ToList();
            var lowest = scaling.MinBy(row => row.Speedup(Implementation.GreenThreads))!;
            Line(text, string.Create(CultureInfo.InvariantCulture, $"| ThreadIterators: no workload slower on 2 OS threads than on 1 (speed-up at least {NoSlower}, 5% for noise) | lowest {Speed(lowest.Speedup(Implementation.GreenThreads))} ({lowest.Workload}) | {(slower.Count == 0 ? "**met**" : $"**missed** ({string.Join(", ", slower.Select(row => $"{row.Workload} {Speed(row.Speedup(Implementation.GreenThreads))}"))})")} |"));
            foreach (var (peer, display) in ScalingRow.Implementations.Where(i => i.Name is Implementation.Akka or Implementation.ProtoActor))
            {
                var ratios = scaling.SelectMany(row => new[] { (row, Workers: 1, Ratio: row.OneMs(peer) / row.OneMs(Implementation.GreenThreads)), (row, Workers: 2, Ratio: row.TwoMs(peer) / row.TwoMs(Implementation.GreenThreads)) }).ToList();
                var behind = ratios.Where(r => !(r.Ratio >= (HopWorkloads.Contains(r.row.Workload) ? 5 : 1))).ToList();
                var least = ratios.Where(r => !double.IsNaN(r.Ratio)).MinBy(r => r.Ratio);
                var measured = least.row is null ? "no complete case" : string.Create(CultureInfo.InvariantCulture, $"lowest {least.Ratio:F1}x ({least.row.Workload}, {Threads(least.Workers)})");
                Line(text, string.Create(CultureInfo.InvariantCulture, $"| Faster than {display} on every workload, on 1 and 2 OS threads; at least 5x on ThreadRing, PingPong and Skynet | {measured} | {(behind.Count == 0 ? "**met**" : $"**missed** ({string.Join(", ", behind.Select(r => double.IsNaN(r.Ratio) ? $"{r.row.Workload} {Threads(r.Workers)} failed" : string.Create(CultureInfo.InvariantCulture, $"{r.row.Workload} {Threads(r.Workers)} {r.Ratio:F1}x")))})")} |"));
            }
        }

        Line(text);
    }

    private static string Speed(double speedup) => string.Create(CultureInfo.InvariantCulture, $"{speedup:F2}x");

    /// <summary>The package version an assembly was built as (its informational version without the commit hash); assembly versions can differ (Proto.Actor 1.8.0's is 1.0.0).</summary>
    private static string Version(Type type) =>
        type.Assembly.GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false) is [System.Reflection.AssemblyInformationalVersionAttribute informational, ..]
            ? informational.InformationalVersion.Split('+')[0]
            : type.Assembly.GetName().Version?.ToString(3) ?? "?";

    private static void WriteScaling(StringBuilder text, List<ScalingRow> rows, string? chart)
    {
        if (rows.Count == 0)
        {
            return;
        }

        Line(text, "## Scaling from 1 to 2 OS threads");
        Line(text);
        Line(text, "Every workload on 1 and on 2 OS threads: ThreadIterators with that many workers, Erlang with that many schedulers (`+S`), and the .NET peers each in a process whose thread pool has that many threads. A cell is the speed-up, time on 1 over time on 2 (above 1: faster on 2), and the two medians in milliseconds.");
        Line(text);
        Line(text, chart is null
            ? "**No chart**: it could not be drawn (the command's output says why)."
            : $"![Speed-up from 1 to 2 OS threads of every workload, for ThreadIterators, Erlang, Tasks, Akka.NET and Proto.Actor]({chart})");
        Line(text);
        Line(text, "| workload | size |" + string.Concat(ScalingRow.Implementations.Select(i => $" {i.Display} |")));
        Line(text, "|---|---|" + string.Concat(ScalingRow.Implementations.Select(_ => "---:|")));
        foreach (var row in rows)
        {
            Line(text, $"| {row.Workload} | {row.Parameters} |" + string.Concat(ScalingRow.Implementations.Select(i => $" {ScalingCell(row, i.Name)} |")));
        }

        Line(text);
        Line(text, "How many times faster ThreadIterators is than each, on the same OS thread count (the other's median over ours):");
        Line(text);
        Line(text, "| workload | OS threads |" + string.Concat(ScalingRow.Implementations.Skip(1).Select(i => $" {i.Display} |")));
        Line(text, "|---|---:|" + string.Concat(ScalingRow.Implementations.Skip(1).Select(_ => "---:|")));
        foreach (var row in rows)
        {
            foreach (var workers in new[] { 1, 2 })
            {
                var ours = workers == 1 ? row.OneMs(Implementation.GreenThreads) : row.TwoMs(Implementation.GreenThreads);
                Line(text, $"| {row.Workload} | {workers} |" + string.Concat(ScalingRow.Implementations.Skip(1).Select(i =>
                {
                    var theirs = workers == 1 ? row.OneMs(i.Name) : row.TwoMs(i.Name);
                    return double.IsNaN(theirs / ours) ? " failed |" : string.Create(CultureInfo.InvariantCulture, $" {theirs / ours:F1}x |");
                })));
            }
        }

        Line(text);
    }

    private static string ScalingCell(ScalingRow row, string implementation)
    {
        var (one, two) = (row.OneMs(implementation), row.TwoMs(implementation));
        return double.IsNaN(one) || double.IsNaN(two)
            ? "failed"
            : string.Create(CultureInfo.InvariantCulture, $"{one / two:F2}x ({one:F1} → {two:F1})");
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

        foreach (var example in results.Where(r => r.Case.WithPeers).Take(1))
        {
            Line(text, $"dotnet benchmarks/ThreadIterators.Benchmarks/bin/Release/net10.0/ThreadIterators.Benchmarks.dll {string.Join(' ', example.Case.Arguments(Implementation.Akka, runs))}");
        }

        Line(text, "```");
        Line(text);
        Line(text, "A peer's command (tasks, akka, protoactor) starts the runner again in a child process with `DOTNET_PROCESSOR_COUNT` and `THREADITERATORS_POOL_THREADS` set to the OS thread count, whose thread pool is then limited to that many threads; the JSON lines report the limit as `pool_threads_max`.");
        Line(text);
        Line(text, "The Erlang programs are in `benchmarks/erlang/`, compiled by the comparison with `erlc +warnings_as_errors` into the build folder. `+P` is set to twice the processes a case needs, rounded up to a power of two and at least 1,048,576; the VM's other flags are its defaults.");
        Line(text);
    }

    private static void WriteFailures(StringBuilder text, IReadOnlyList<CaseResult> results)
    {
        var failures = results.SelectMany(r => r.Failures.Concat(r.PeerFailures).Select(f => $"{r.Case.Label}, {Threads(r.Case.Workers)}: {f}")).ToList();
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
