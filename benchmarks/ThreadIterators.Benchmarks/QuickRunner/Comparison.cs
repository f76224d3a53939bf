using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// The short comparison: every workload at its comparison size, green threads on 1 and 2 workers against the
/// baselines, medians of a few runs, printed as one table. Progress goes to standard error as it runs.
/// </summary>
internal static class Comparison
{
    public static int Run(CommandLine command)
    {
        var rows = new List<(WorkloadSpec Spec, Implementation Implementation, int Workers, RunOptions Sizes, Measurement Median)>();
        var plan = Catalogue.All
            .SelectMany(spec => spec.Implementations
                .Where(i => command.Implementations is null || command.Implementations.Contains(i.Name))
                .SelectMany(i => (i.UsesWorkers ? command.Workers : [0]).Select(w => (Spec: spec, Implementation: i, Workers: w))))
            .ToList();
        var wrong = 0;
        for (var step = 0; step < plan.Count; step++)
        {
            var (spec, implementation, workers) = plan[step];
            var sizes = implementation.Resize?.Invoke(spec.ComparisonSizes) ?? spec.ComparisonSizes;
            Console.Error.Write($"[{step + 1}/{plan.Count}] {spec.Name} {implementation.Name}{(implementation.UsesWorkers ? $" workers={workers}" : string.Empty)} ...");
            var runs = Runner.Measure(spec, implementation, workers, spec.ComparisonSizes, command.Runs);
            var median = Measurement.Median(runs);
            var bad = runs.Count(r => r.Result != spec.Expected(sizes));
            wrong += bad;
            Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $" {median.ElapsedMs:F0} ms{(bad > 0 ? " WRONG RESULT" : string.Empty)}"));
            rows.Add((spec, implementation, workers, sizes, median));
        }

        Console.WriteLine();
        Console.WriteLine($"Medians of {command.Runs} runs on {Environment.ProcessorCount} cores, {Environment.Version}; 'vs tasks' is how many times faster than async/await with channels on the same workload in this run.");
        Console.WriteLine();
        Console.WriteLine("| workload | size | implementation | workers | median ms | ns/msg | vs tasks | B/msg | gc0/1/2 |");
        Console.WriteLine("|---|---|---|---:|---:|---:|---:|---:|---|");
        foreach (var row in rows)
        {
            var baseline = rows.FirstOrDefault(r => r.Spec == row.Spec && r.Implementation.Name == Implementation.Tasks).Median;
            var ratio = baseline is null ? "-" : (baseline.NsPerMessage / row.Median.NsPerMessage).ToString("F1", CultureInfo.InvariantCulture) + "x";
            var m = row.Median;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {row.Spec.Name} | {row.Spec.Describe(row.Sizes)} | {row.Implementation.Name} | {(row.Implementation.UsesWorkers ? row.Workers.ToString(CultureInfo.InvariantCulture) : "pool")} | {m.ElapsedMs:F1} | {m.NsPerMessage:F1} | {ratio} | {m.BytesPerMessage:F2} | {m.Gen0}/{m.Gen1}/{m.Gen2} |"));
        }

        if (wrong > 0)
        {
            Console.Error.WriteLine($"{wrong} run(s) computed a wrong result.");
            return 1;
        }

        return 0;
    }
}
