using System.Collections.Generic;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.PolicyComparison;

/// <summary>What the policy comparison measures: the cache-affinity grid and the other workloads, and how often.</summary>
/// <param name="Grid">The grid's cells, each with every policy and the thread-pool baseline, on <see cref="GridWorkers"/> workers.</param>
/// <param name="Others">The other workloads, at the sizes given, under every policy.</param>
/// <param name="OtherWorkers">The worker counts the other workloads run with.</param>
/// <param name="Passes">How many times every configuration is visited, each time in a fresh process, in a rotated order.</param>
/// <param name="Runs">Measured runs per configuration per pass.</param>
/// <param name="WarmUpMilliseconds">Warm-up of each configuration in its process.</param>
internal sealed record PolicyPlan(
    IReadOnlyList<RunOptions> Grid,
    IReadOnlyList<(string Workload, RunOptions Sizes)> Others,
    IReadOnlyList<int> OtherWorkers,
    int Passes,
    int Runs,
    int WarmUpMilliseconds)
{
    /// <summary>Workers of the grid, as in the issue that set it: two, this machine's cores.</summary>
    public const int GridWorkers = 2;

    /// <summary>Cells whose actors' state adds up to more than this are left out (8,000 actors of 320 KB and 3.2 MB).</summary>
    public const long MaxTotalState = 2_000_000_000;

    /// <summary>Gets the full plan: the seed's grid at 400,000 messages a cell, and the other workloads at the quick runner's comparison sizes.</summary>
    public static PolicyPlan Full { get; } = new(
        Cells([4, 24, 240, 8000], [64, 4_000, 32_000, 320_000, 3_200_000], [20, 100], messages: 400_000),
        [.. Catalogue.All.Where(w => w.Name != "cacheaffinity").Select(w => (w.Name, w.ComparisonSizes))],
        [1, 2],
        Passes: 3,
        Runs: 3,
        WarmUpMilliseconds: Runner.WarmUpMilliseconds);

    /// <summary>Gets a toy plan that runs the whole pipeline in seconds, for tests.</summary>
    public static PolicyPlan Quick { get; } = new(
        Cells([4, 24], [64, 4_000], [20], messages: 2_000),
        [("ring", new RunOptions(N: 50, M: 20, Hops: 0)), ("pingpong", new RunOptions(N: 0, M: 2_000, Hops: 0))],
        [2],
        Passes: 1,
        Runs: 1,
        WarmUpMilliseconds: 0);

    private static List<RunOptions> Cells(int[] actors, long[] states, int[] accesses, long messages) =>
    [
        .. from a in actors
           from s in states
           where a * s <= MaxTotalState
           from k in accesses
           select new RunOptions(N: 0, M: messages, Hops: 0, Actors: a, State: s, Accesses: k),
    ];
}
