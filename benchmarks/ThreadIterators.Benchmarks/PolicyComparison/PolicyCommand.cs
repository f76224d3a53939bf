using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.Json;
using ThreadIterators.Benchmarks.QuickRunner;
using QuickCommandLine = ThreadIterators.Benchmarks.QuickRunner.CommandLine;

namespace ThreadIterators.Benchmarks.PolicyComparison;

/// <summary>
/// <c>policies [--quick] [--passes P] [--runs R] [--out FILE]</c>: measures every scheduling policy on the
/// cache-affinity grid (against the thread-pool baseline) and on the other workloads, and prints the tables and
/// target verdicts of docs/scheduling.md as markdown (to FILE if given). Every configuration is visited
/// <c>--passes</c> times, each time in a fresh process with the policies in a rotated order, so neither a slow
/// spell of the machine nor a position in the order lands on one policy. Progress goes to standard error.
/// </summary>
internal static class PolicyCommand
{

    private const string Usage = "usage: policies [--quick] [--passes P] [--runs R] [--out FILE]";

    /// <summary>How long one child (a cell's five configurations, or a workload's four) may take; the largest takes about 30 s.</summary>
    private static readonly TimeSpan ChildTimeout = TimeSpan.FromSeconds(90);

    public static int Execute(string[] args)
    {
        var plan = PolicyPlan.Full;
        string? output = null;
        for (var i = 1; i < args.Length; i++)
        {
            var value = i + 1 < args.Length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--quick":
                    plan = PolicyPlan.Quick;
                    continue;
                case "--passes" or "--runs" when int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) && number > 0:
                    plan = args[i] == "--passes" ? plan with { Passes = number } : plan with { Runs = number };
                    break;
                case "--out" when value is not null:
                    output = value;
                    break;
                default:
                    Console.Error.WriteLine($"unknown or incomplete argument '{args[i]}'.");
                    Console.Error.WriteLine(Usage);
                    return 2;
            }

            i++;
        }

        var started = DateTime.UtcNow;
        var results = Run(plan, out var failures);
        var report = PolicyReport.Write(plan, results, string.Join(' ', args), DateTime.UtcNow - started, failures: failures);
        if (output is null)
        {
            Console.Write(report);
        }
        else
        {
            File.WriteAllText(output, report);
            Console.Error.WriteLine($"wrote {output}");
        }

        var failed = results.Count(r => !r.Ok);
        if (failed > 0)
        {
            Console.Error.WriteLine($"{failed} configuration(s) failed or computed a wrong result.");
            return 1;
        }

        return 0;
    }

    /// <summary>Measures the plan and returns one result per configuration; <paramref name="failures"/> lists the processes that failed and were run again.</summary>
    internal static List<PolicyResult> Run(PolicyPlan plan, out List<string> failures)
    {
        failures = [];
        var results = new Dictionary<(string, RunOptions, int, string), PolicyResult>();
        var policies = QuickCommandLine.PolicyNames.Keys.ToList();
        var jobs = new List<(string Workload, RunOptions Sizes, int Workers, bool Pool)>();
        jobs.AddRange(plan.Grid.Select(cell => ("cacheaffinity", cell, PolicyPlan.GridWorkers, true)));
        jobs.AddRange(from other in plan.Others from w in plan.OtherWorkers select (other.Workload, other.Sizes, w, false));
        for (var pass = 0; pass < plan.Passes; pass++)
        {
            for (var j = 0; j < jobs.Count; j++)
            {
                var (workload, sizes, workers, pool) = jobs[j];
                var shift = (pass + j) % policies.Count;
                var order = policies.Skip(shift).Concat(policies.Take(shift)).ToList();
                var expected = order.Select(p => (Workers: workers, Runner: p)).ToList();
                if (pool)
                {
                    expected.Add((0, Implementation.ThreadPool));
                }

                foreach (var (w, runner) in expected)
                {
                    if (!results.ContainsKey((workload, sizes, w, runner)))
                    {
                        results[(workload, sizes, w, runner)] = new PolicyResult(workload, sizes, w, runner);
                    }
                }

                Console.Error.WriteLine($"[pass {pass + 1}/{plan.Passes}, {j + 1}/{jobs.Count}] {workload} {Describe(workload, sizes)} workers={workers}");
                List<string> arguments =
                [
                    "run", workload, .. sizes.Arguments(),
                    "--workers", workers.ToString(CultureInfo.InvariantCulture),
                    "--policy", string.Join(',', order),
                    "--impl", pool ? $"{Implementation.GreenThreads},{Implementation.ThreadPool}" : Implementation.GreenThreads,
                    "--runs", plan.Runs.ToString(CultureInfo.InvariantCulture),
                    "--warmup", plan.WarmUpMilliseconds.ToString(CultureInfo.InvariantCulture),
                    "--json",
                ];
                var child = RunChild(arguments);
                if (child.ExitCode != 0)
                {
                    // Once more, so one failed process does not blank the cell; the failure is still reported.
                    Console.Error.Write(child.Error);
                    Console.Error.WriteLine("    failed; running it once more");
                    failures.Add($"{workload} {Describe(workload, sizes)} workers={workers}, pass {pass + 1}: {FirstLine(child.Error)}");
                    child = RunChild(arguments);
                }

                var seen = expected.ToDictionary(e => e.Runner, _ => 0);
                foreach (var line in child.Lines.Where(l => l.StartsWith('{')))
                {
                    using var json = JsonDocument.Parse(line);
                    var root = json.RootElement;
                    if (root.GetProperty("run").GetString() == "median")
                    {
                        continue;
                    }

                    var implementation = root.GetProperty("implementation").GetString()!;
                    var runner = implementation == Implementation.GreenThreads ? root.GetProperty("policy").GetString()! : implementation;
                    var result = results[(workload, sizes, implementation == Implementation.GreenThreads ? workers : 0, runner)];
                    result.ElapsedMs.Add(root.GetProperty("elapsed_ms").GetDouble());
                    result.NsPerMessage.Add(root.GetProperty("ns_per_message").GetDouble());
                    result.Ok &= root.GetProperty("ok").GetBoolean();
                    seen[runner]++;
                }

                if (child.ExitCode != 0)
                {
                    Console.Error.Write(child.Error);
                }

                foreach (var (w, runner) in expected)
                {
                    var result = results[(workload, sizes, w, runner)];
                    if (child.ExitCode != 0 || seen[runner] != plan.Runs)
                    {
                        result.Ok = false;
                    }

                    Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"    {runner}: {(result.Ok ? $"{result.ElapsedMs[^1]:F1} ms" : "FAILED")}"));
                }
            }
        }

        return [.. results.Values];
    }

    /// <summary>Runs one child; a child that outlives <see cref="ChildTimeout"/> is killed and counts as failed.</summary>
    private static ChildProcess.Outcome RunChild(List<string> arguments)
    {
        try
        {
            return ChildProcess.RunSelf(arguments, ChildTimeout);
        }
        catch (TimeoutException timeout)
        {
            return new ChildProcess.Outcome(-1, [], timeout.Message + Environment.NewLine);
        }
    }

    private static string FirstLine(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries).FirstOrDefault()?.Trim() ?? "no output";

    /// <summary>The sizes as the quick runner's catalogue describes them.</summary>
    internal static string Describe(string workload, RunOptions sizes) => Catalogue.All.First(w => w.Name == workload).Describe(sizes);
}
