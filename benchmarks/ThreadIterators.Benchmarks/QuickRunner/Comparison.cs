using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text.Json;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// The short comparison: every workload at its comparison size, green threads on 1 and 2 workers against the
/// baselines, medians of a few runs, printed as one table. Each workload runs in a child process of its own, as
/// standalone benchmark programs do, so the JIT's profile of one workload's threads does not shape another's.
/// Progress goes to standard error as it runs.
/// </summary>
internal static class Comparison
{
    public static int Run(CommandLine command)
    {
        var rows = new List<Row>();
        var wrong = 0;
        var workloads = Catalogue.All;
        for (var step = 0; step < workloads.Count; step++)
        {
            var spec = workloads[step];
            var sizes = spec.ComparisonSizes;
            Console.Error.WriteLine($"[{step + 1}/{workloads.Count}] {spec.Name} {spec.Describe(sizes)}");
            var arguments = new List<string> { "run", spec.Name, "--runs", command.Runs.ToString(CultureInfo.InvariantCulture), "--json" };
            arguments.AddRange(sizes.Arguments());
            if (command.Workers.Count == 1)
            {
                arguments.AddRange(["--workers", command.Workers[0].ToString(CultureInfo.InvariantCulture)]);
            }

            if (command.PolicyGiven)
            {
                arguments.AddRange(["--policy", string.Join(',', command.Policies.Select(CommandLine.NameOf))]);
            }

            if (command.Implementations is not null)
            {
                arguments.AddRange(["--impl", string.Join(',', command.Implementations)]);
            }

            foreach (var line in RunChild(arguments))
            {
                using var json = JsonDocument.Parse(line);
                var root = json.RootElement;
                var row = new Row(
                    spec.Name,
                    root.GetProperty("parameters").GetString()!,
                    root.GetProperty("implementation").GetString()!,
                    root.GetProperty("workers").GetInt32(),
                    root.GetProperty("run").GetString()!,
                    root.GetProperty("elapsed_ms").GetDouble(),
                    root.GetProperty("ns_per_message").GetDouble(),
                    root.GetProperty("allocated_bytes").GetDouble() / root.GetProperty("messages").GetDouble(),
                    $"{root.GetProperty("gen0_collections").GetInt32()}/{root.GetProperty("gen1_collections").GetInt32()}/{root.GetProperty("gen2_collections").GetInt32()}",
                    root.GetProperty("ok").GetBoolean());
                var who = row.Workers == 0 ? row.Implementation : $"{row.Implementation} workers={row.Workers}";
                Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"    {who} {(row.Run == "median" ? "median" : "run " + row.Run)}: {row.ElapsedMs:F1} ms{(row.Ok ? string.Empty : " WRONG RESULT")}"));
                if (row.Run == "median")
                {
                    rows.Add(row);
                }
                else if (!row.Ok)
                {
                    wrong++;
                }
            }
        }

        Console.WriteLine();
        Console.WriteLine($"Medians of {command.Runs} runs on {Environment.ProcessorCount} cores, .NET {Environment.Version}, each workload in its own process; workers are a scheduler's OS threads, or the thread pool's for tasks, threadpool, akka and protoactor (\"own\": an OS thread per actor); 'vs tasks' is how many times faster than async/await with channels on the same workload with as many threads.");
        Console.WriteLine();
        Console.WriteLine("| workload | size | implementation | workers | median ms | ns/msg | vs tasks | B/msg | gc0/1/2 |");
        Console.WriteLine("|---|---|---|---:|---:|---:|---:|---:|---|");
        foreach (var row in rows)
        {
            // Against the tasks on as many threads, or on the pool unlimited for implementations on threads of their own.
            var baseline = rows.FirstOrDefault(r => r.Workload == row.Workload && r.Implementation == Implementation.Tasks && (r.Workers == row.Workers || row.Workers == 0));
            var ratio = baseline is null ? "-" : (baseline.NsPerMessage / row.NsPerMessage).ToString("F1", CultureInfo.InvariantCulture) + "x";
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {row.Workload} | {row.Parameters} | {row.Implementation} | {(row.Workers == 0 ? "own" : row.Workers.ToString(CultureInfo.InvariantCulture))} | {row.ElapsedMs:F1} | {row.NsPerMessage:F1} | {ratio} | {row.BytesPerMessage:F2} | {row.Collections} |"));
        }

        if (wrong > 0 || rows.Count == 0)
        {
            Console.Error.WriteLine(wrong > 0 ? $"{wrong} run(s) computed a wrong result." : "no workload produced a result.");
            return 1;
        }

        return 0;
    }

    /// <summary>Runs this program again with <paramref name="arguments"/> and returns the JSON lines it prints.</summary>
    private static List<string> RunChild(List<string> arguments)
    {
        var child = ChildProcess.RunSelf(arguments, TimeSpan.FromMinutes(30));
        Console.Error.Write(child.Error);
        if (child.ExitCode != 0)
        {
            Console.Error.WriteLine($"    the run exited with code {child.ExitCode}");
        }

        return child.Lines.Where(line => line.StartsWith('{')).ToList();
    }

    /// <summary>One line of a child's JSON output.</summary>
    private sealed record Row(string Workload, string Parameters, string Implementation, int Workers, string Run, double ElapsedMs, double NsPerMessage, double BytesPerMessage, string Collections, bool Ok);
}
