using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>What one <c>cluster-compare</c> measures, from its command line.</summary>
internal sealed record ClusterPlan(
    bool Quick,
    int Runs,
    int Workers,
    IReadOnlyList<string>? Only,
    string? Output,
    int Pings,
    int StreamOne,
    int StreamMany,
    IReadOnlyList<int> RingSizes,
    int RingHops,
    int Watchers)
{
    /// <summary>Gets the command line that writes the report, as the report prints it.</summary>
    public string CommandLine =>
        "dotnet run -c Release --project benchmarks/ThreadIterators.Cluster.Benchmarks -- cluster-compare"
        + (Quick ? " --quick" : string.Empty)
        + (Runs != (Quick ? 1 : 5) ? string.Create(CultureInfo.InvariantCulture, $" --runs {Runs}") : string.Empty)
        + (Workers != 2 ? string.Create(CultureInfo.InvariantCulture, $" --workers {Workers}") : string.Empty)
        + (Only is null ? string.Empty : $" --only {string.Join(',', Only)}")
        + (RingSizes.SequenceEqual([10, 100, 1_000]) ? string.Empty : $" --ring-sizes {string.Join(',', RingSizes)}");

    public static ClusterPlan Parse(string[] args)
    {
        var quick = args.Contains("--quick");
        var runs = quick ? 1 : 5;
        var workers = 2;
        string? output = null;
        IReadOnlyList<string>? only = null;
        IReadOnlyList<int> ringSizes = [10, 100, 1_000];
        for (var i = 1; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--runs" when i + 1 < args.Length:
                    runs = int.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--workers" when i + 1 < args.Length:
                    workers = int.Parse(args[++i], CultureInfo.InvariantCulture);
                    break;
                case "--out" when i + 1 < args.Length:
                    output = args[++i];
                    break;
                case "--ring-sizes" when i + 1 < args.Length:
                    ringSizes = [.. args[++i].Split(',').Select(s => int.Parse(s, CultureInfo.InvariantCulture))];
                    break;
                case "--only" when i + 1 < args.Length:
                    only = args[++i].Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
                    break;
            }
        }

        return new ClusterPlan(
            quick,
            runs,
            workers,
            only,
            output,
            Pings: quick ? 300 : 3_000,
            StreamOne: quick ? 300 : 3_000,
            StreamMany: quick ? 20_000 : 300_000,
            RingSizes: ringSizes,
            RingHops: quick ? 2_000 : 10_000,
            Watchers: quick ? 100 : 1_000);
    }
}
