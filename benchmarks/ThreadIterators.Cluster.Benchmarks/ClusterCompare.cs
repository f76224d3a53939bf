using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using ThreadIterators.Cluster.Benchmarks.Contenders;
using ThreadIterators.Cluster.Benchmarks.Contenders.Akka;
using ThreadIterators.Cluster.Benchmarks.Contenders.Erlang;
using ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;
using ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>
/// <c>cluster-compare [--quick] [--runs R] [--workers W] [--only NAMES] [--ring-sizes N,N,...] [--out DIR]</c>: distributed actors across two
/// nodes on loopback TCP, each node an OS process of its own (or the first one this process), so that every message
/// crosses the network stack. Green threads on Orleans against raw Orleans grain calls, Akka.Remote, Proto.Remote and
/// Erlang distribution, on the same machine in one run, their order rotating run by run. Workloads: a sequential round
/// trip (p50, p99); a one-way stream at windows of 1 and 1,000 (messages per second, and CPU per message over every
/// node's process); a ring whose forwarders alternate between the nodes (hops per second); and the time from killing a
/// third node to its watchers hearing of it. Each figure is the median of R runs. Writes
/// <c>cluster-comparison.md</c> and its chart into DIR (default: the repository's <c>docs</c>). Exits with 1 if any
/// contender failed, after writing what the others measured.
/// </summary>
internal static class ClusterCompare
{
    public static async Task<int> RunAsync(string[] args)
    {
        var plan = ClusterPlan.Parse(args);
        var pair = new OrleansPair(plan.Workers, plan.RingSizes);
        var all = new Contender[]
        {
            new GreenContender(pair),
            new RawOrleansContender(pair),
            new AkkaContender(),
            new ProtoContender(),
            new ErlangContender(),
        };
        var contenders = all.Where(c => plan.Only is null || plan.Only.Any(o => c.Name.Contains(o, StringComparison.OrdinalIgnoreCase))).ToList();
        var results = contenders.ToDictionary(c => c.Name, c => new ContenderResults(c.Name));
        try
        {
            foreach (var contender in contenders)
            {
                await Attempt(results[contender.Name], "start", async () =>
                {
                    Console.WriteLine($"starting {contender.Name}");
                    await contender.StartAsync().ConfigureAwait(false);
                    results[contender.Name].Version = contender.Version;
                    results[contender.Name].Settings = contender.Settings;

                    // A short pass first: connections, JIT, activations, and a lap of each ring.
                    await contender.PingPongAsync(100).ConfigureAwait(false);
                    await contender.StreamAsync(1_000, 100).ConfigureAwait(false);
                    foreach (var size in plan.RingSizes)
                    {
                        await contender.RingAsync(size, 1).ConfigureAwait(false);
                    }
                }).ConfigureAwait(false);
            }

            for (var run = 0; run < plan.Runs; run++)
            {
                // The order rotates from run to run.
                foreach (var contender in contenders.Skip(run % contenders.Count).Concat(contenders.Take(run % contenders.Count)))
                {
                    var result = results[contender.Name];
                    if (result.Failure is not null)
                    {
                        continue;
                    }

                    var row = new RunRow();
                    await Attempt(result, $"run {run + 1}", async () =>
                    {
                        var rtts = await contender.PingPongAsync(plan.Pings).ConfigureAwait(false);
                        (row.P50, row.P99) = (Percentile(rtts, 0.50), Percentile(rtts, 0.99));
                        var one = await Measure(contender, () => contender.StreamAsync(plan.StreamOne, 1)).ConfigureAwait(false);
                        (row.StreamOne, row.CpuOne) = (plan.StreamOne / one.Seconds, one.CpuMicroseconds / plan.StreamOne);
                        var many = await Measure(contender, () => contender.StreamAsync(plan.StreamMany, 1_000)).ConfigureAwait(false);
                        (row.StreamMany, row.CpuMany) = (plan.StreamMany / many.Seconds, many.CpuMicroseconds / plan.StreamMany);
                        foreach (var size in plan.RingSizes)
                        {
                            var laps = Math.Max(1, plan.RingHops / size);
                            var travel = await contender.RingAsync(size, laps).ConfigureAwait(false);
                            row.RingHopsPerSecond[size] = (double)size * laps / travel.TotalSeconds;
                        }

                        row.NodeDown = (await contender.NodeDownAsync(plan.Watchers).ConfigureAwait(false)).TotalMilliseconds;
                        result.Runs.Add(row);
                        Console.WriteLine($"run {run + 1}/{plan.Runs} {contender.Name}: {row}");
                    }).ConfigureAwait(false);
                }
            }
        }
        finally
        {
            foreach (var contender in contenders)
            {
                await Attempt(results[contender.Name], "stop", () => contender.DisposeAsync().AsTask()).ConfigureAwait(false);
            }
        }

        var output = plan.Output ?? FindDocs();
        Directory.CreateDirectory(output);
        var path = Path.Combine(output, "cluster-comparison.md");
        await File.WriteAllTextAsync(path, ClusterReport.Write(plan, results.Values.ToList(), output)).ConfigureAwait(false);
        Console.WriteLine($"wrote {path}");
        foreach (var failed in results.Values.Where(r => r.Failure is not null))
        {
            Console.Error.WriteLine($"{failed.Name} failed: {failed.Failure}");
        }

        return results.Values.Any(r => r.Failure is not null) ? 1 : 0;
    }

    /// <summary>Runs <paramref name="step"/>, recording its failure on the contender's results instead of ending the comparison.</summary>
    private static async Task Attempt(ContenderResults result, string step, Func<Task> work)
    {
        try
        {
            await work().ConfigureAwait(false);
        }
#pragma warning disable CA1031 // One contender's failure is reported, and the others still run.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            result.Failure ??= $"{step}: {exception.GetType().Name}: {exception.Message}";
            Console.Error.WriteLine($"{result.Name} failed at {step}: {exception}");
        }
    }

    private static async Task<(double Seconds, double CpuMicroseconds)> Measure(Contender contender, Func<Task> work)
    {
        var processes = contender.Nodes.Prepend(Process.GetCurrentProcess()).ToList();
        var cpuBefore = Cpu(processes);
        var clock = Stopwatch.StartNew();
        await work().ConfigureAwait(false);
        clock.Stop();
        return (clock.Elapsed.TotalSeconds, (Cpu(processes) - cpuBefore).TotalMicroseconds);
    }

    private static TimeSpan Cpu(List<Process> processes)
    {
        var total = TimeSpan.Zero;
        foreach (var process in processes)
        {
            process.Refresh();
            total += process.TotalProcessorTime;
        }

        return total;
    }

    private static double Percentile(double[] values, double quantile)
    {
        var sorted = values.Order().ToArray();
        return sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(quantile * sorted.Length) - 1)];
    }

    private static string FindDocs()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "ThreadIterators.sln")))
            {
                return Path.Combine(directory.FullName, "docs");
            }
        }

        return Directory.GetCurrentDirectory();
    }
}
