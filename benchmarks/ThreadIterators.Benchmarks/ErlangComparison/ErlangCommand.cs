using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.Json;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>
/// <c>compare [--runs R] [--quick] [--out DIR]</c>: the same workloads with the same sizes on the same number of OS
/// threads, ThreadIterators against Erlang, on this machine. Each side runs each case in a fresh process (a .NET
/// process or an Erlang VM), and the sides alternate, swapping which goes first from one workload size to the
/// next, so drift on a shared machine hits both alike. Writes <c>erlang-comparison.md</c> and its charts into
/// DIR (default: the repository's <c>docs</c>). The cases marked for it also run the .NET peers (tasks, Akka.NET,
/// Proto.Actor) on 1 and 2 pool threads, for the scaling table and chart.
/// </summary>
internal static class ErlangCommand
{
    private const string Usage = "usage: compare [--runs R] [--quick] [--out DIR]   (R >= 1, default 3; --quick: toy sizes, to check the pipeline)";

    /// <summary>No single run of the full plan comes near this; a hung one is killed and reported.</summary>
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(10);

    public static int Execute(string[] args) => Execute(args, plan: null);

    /// <summary>Runs the comparison; tests pass a small <paramref name="plan"/> of their own.</summary>
    internal static int Execute(string[] args, IReadOnlyList<ComparisonCase>? plan)
    {
        var runs = 3;
        var quick = false;
        string? output = null;
        for (var i = 1; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--quick":
                    quick = true;
                    break;
                case "--runs" when i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.Integer, CultureInfo.InvariantCulture, out runs) && runs >= 1:
                    i++;
                    break;
                case "--out" when i + 1 < args.Length:
                    output = args[++i];
                    break;
                default:
                    Console.Error.WriteLine($"unknown or incomplete argument '{args[i]}'");
                    Console.Error.WriteLine(Usage);
                    return 2;
            }
        }

        var total = Stopwatch.StartNew();
        var root = RepositoryRoot();
        output ??= Path.Combine(root, "docs");
        var tools = DebianTools.Require([("erl", "erlang-nox"), ("erlc", "erlang-nox")], Progress);
        var erlang = ErlangRuntime.Compile(tools["erl"], tools["erlc"], Path.Combine(root, "benchmarks", "erlang"), Path.Combine(AppContext.BaseDirectory, "erlang-ebin"));
        Progress($"{erlang.Version}; .NET {Environment.Version}; {Environment.ProcessorCount} cores; {runs} run(s) per side per case");

        plan ??= quick ? ComparisonPlan.Quick() : ComparisonPlan.Full();
        var results = new List<CaseResult>();
        var group = 0;
        for (var index = 0; index < plan.Count; index++)
        {
            var result = new CaseResult(plan[index]);
            results.Add(result);
            // A message workload runs all its measured runs in one process per side, after one warm-up; the
            // footprint needs no warm-up, so each of its runs is a process of its own. Which side goes first
            // alternates from one workload and size to the next (the 1- and 2-thread cases of one size come in a
            // pair, so alternating case by case would always put the same side first on 1 thread), and from round
            // to round for the footprint.
            if (index > 0 && plan[index - 1].Label != plan[index].Label)
            {
                group++;
            }

            var batches = result.Case.Workload == ComparisonCase.Footprint ? runs : 1;
            var runsPerBatch = runs / batches;
            for (var batch = 0; batch < batches; batch++)
            {
                var oursFirst = (group + batch) % 2 == 0;
                var first = oursFirst ? RunOurs(result, runsPerBatch) : RunErlang(result, erlang, runsPerBatch);
                var second = oursFirst ? RunErlang(result, erlang, runsPerBatch) : RunOurs(result, runsPerBatch);
                var (ours, theirs) = oursFirst ? (first, second) : (second, first);
                var peers = result.Case.WithPeers
                    ? string.Concat(ComparisonCase.Peers.Select(peer => $", {peer} {Show(result.Case, RunPeer(result, peer, runsPerBatch))}"))
                    : string.Empty;
                Progress($"[{index + 1}/{plan.Count}] {result.Case.Label}, {result.Case.Workers} OS thread(s){(batches > 1 ? $", round {batch + 1}/{batches}" : string.Empty)}: threaditerators {Show(result.Case, ours)}, erlang {Show(result.Case, theirs)}{peers}");
            }

            foreach (var failure in result.Failures.Concat(result.PeerFailures))
            {
                Progress($"    FAILED: {failure}");
            }
        }

        // The charts are drawn first so the report can say whether they were; a failed chart must not cost the report.
        Directory.CreateDirectory(output);
        var scaling = ScalingRow.From(results);
        var ringChart = TryChart(() => RingChart.Write(results, output));
        var scalingChart = scaling.Count == 0 ? null : TryChart(() => ScalingChart.Write(scaling, output));
        var chartsDrawn = ringChart is not null && (scaling.Count == 0 || scalingChart is not null);

        var report = Path.Combine(output, "erlang-comparison.md");
        File.WriteAllText(report, ReportWriter.Write(results, erlang.Version, runs, quick, ringChart, scalingChart, total.Elapsed));
        Progress($"wrote {report}{(ringChart is null ? string.Empty : $", {ringChart}")}{(scalingChart is null ? string.Empty : $", {scalingChart}")} in {total.Elapsed.TotalMinutes:F1} minutes");

        var failed = results.Sum(r => r.Failures.Count + r.PeerFailures.Count);
        if (failed > 0 || !chartsDrawn)
        {
            Console.Error.WriteLine($"{failed} run(s) failed{(chartsDrawn ? string.Empty : " and a chart was not drawn")}; the report marks their cases.");
            return 1;
        }

        return 0;
    }

    /// <summary>Draws a chart and returns its file name, or null (saying why) if it could not be drawn.</summary>
    private static string? TryChart(Func<string> draw)
    {
        try
        {
            return Path.GetFileName(draw());
        }
        catch (InvalidOperationException e)
        {
            Progress($"no chart: {e.Message.ReplaceLineEndings(" ")}");
            return null;
        }
    }

    private static List<RunRecord> RunOurs(CaseResult result, int runs) =>
        Record(result, result.Ours, Implementation.GreenThreads, runs, () => ChildProcess.RunSelf(result.Case.OurArguments(runs), RunTimeout));

    /// <summary>Runs a .NET peer through the quick runner, which starts it in a process whose pool has the case's thread count.</summary>
    private static List<RunRecord> RunPeer(CaseResult result, string peer, int runs) =>
        Record(result, result.RunsOf(peer), peer, runs, () => ChildProcess.RunSelf(result.Case.Arguments(peer, runs), RunTimeout));

    private static List<RunRecord> RunErlang(CaseResult result, ErlangRuntime erlang, int runs) =>
        Record(result, result.Erlang, "erlang", runs, () => erlang.Run(result.Case, runs, RunTimeout));

    /// <summary>Runs one side; <see cref="Accept"/> keeps what it measured.</summary>
    private static List<RunRecord> Record(CaseResult result, List<RunRecord> into, string side, int runs, Func<ChildProcess.Outcome> run)
    {
        try
        {
            return Accept(result, into, side, runs, run());
        }
        catch (TimeoutException e)
        {
            result.Fail(side, $": {e.Message}");
            return [];
        }
    }

    /// <summary>
    /// Keeps the records of one side's measured runs (not the median line it also prints), provided the process
    /// succeeded, printed <paramref name="runs"/> runs, and each run is this side's, of this case's workload, sizes
    /// and OS threads, and verified its result. Anything else becomes a failure of the case.
    /// </summary>
    internal static List<RunRecord> Accept(CaseResult result, List<RunRecord> into, string side, int runs, ChildProcess.Outcome outcome)
    {
        var lines = outcome.Lines.Where(l => l.StartsWith('{') && !l.Contains("\"run\":\"median\"", StringComparison.Ordinal)).ToList();
        if (outcome.ExitCode != 0 || lines.Count != runs)
        {
            result.Fail(side, $" exited with code {outcome.ExitCode} after {lines.Count} of {runs} run(s): {outcome.Error.Trim()} {string.Join(' ', outcome.Lines).Trim()}");
            return [];
        }

        var records = new List<RunRecord>();
        foreach (var line in lines)
        {
            RunRecord record;
            try
            {
                record = RunRecord.Parse(line);
            }
            catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException)
            {
                result.Fail(side, $": unreadable run ({e.Message}): {line}");
                continue;
            }

            if (!record.Ok || record.Implementation != side || record.Workload != result.Case.Workload
                || record.Workers != result.Case.Workers || record.Parameters != result.Case.Parameters)
            {
                result.Fail(side, $": wrong result or a run of something else (expected {result.Case.Workload} {result.Case.Parameters} on {result.Case.Workers} OS threads): {line}");
                continue;
            }

            into.Add(record);
            records.Add(record);
        }

        return records;
    }

    private static string Show(ComparisonCase comparisonCase, List<RunRecord> records) => records.Count == 0
        ? "FAILED"
        : string.Join(", ", records.Select(record => comparisonCase.Workload == ComparisonCase.Footprint
            ? string.Create(CultureInfo.InvariantCulture, $"{record.Value:F0} B per parked thread")
            : string.Create(CultureInfo.InvariantCulture, $"{record.ElapsedMs:F1} ms")));

    private static void Progress(string message) => Console.Error.WriteLine(message);

    /// <summary>The folder holding ThreadIterators.sln, searched upwards from the working directory and then from this program.</summary>
    internal static string RepositoryRoot()
    {
        foreach (var start in new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "ThreadIterators.sln")))
                {
                    return directory.FullName;
                }
            }
        }

        throw new InvalidOperationException("run the comparison from inside the repository: ThreadIterators.sln was not found above the working directory.");
    }
}
