using System.Collections.Generic;
using System.Linq;
using ThreadIterators.Benchmarks.QuickRunner;

namespace ThreadIterators.Benchmarks.ErlangComparison;

/// <summary>
/// What the comparison runs: the seed's ring grid (M = 1000, N = 64 .. 262144), the other workloads at sizes where
/// one Erlang run takes about a second or two, and the parked-thread footprint at 262,144 and 1,000,000 threads,
/// each on 1 and 2 OS threads (the footprint on 2). The .NET peers run every workload but the footprint, the ring
/// at one size of the grid: enough for the scaling table without the hours the slowest of them would need for the
/// whole grid.
/// </summary>
internal static class ComparisonPlan
{
    /// <summary>Gets the OS thread counts both sides run with.</summary>
    public static IReadOnlyList<int> Workers { get; } = [1, 2];

    /// <summary>The full comparison, which the README's main job runs.</summary>
    public static IReadOnlyList<ComparisonCase> Full() => Build(
        ringSizes: Enumerable.Range(0, 13).Select(k => 64L << k),
        ringMessages: 1000,
        peerRing: 4096,
        workloads:
        [
            ("threadring", new RunOptions(0, 0, 10_000_000)),
            ("parallelthreadring", new RunOptions(0, 0, 503 * 20_000)),
            ("pingpong", new RunOptions(0, 10_000_000, 0)),
            ("countingactor", new RunOptions(0, 10_000_000, 0)),
            ("producerconsumer", new RunOptions(0, 10_000_000, 0)),
            ("skynet", new RunOptions(1_000_000, 0, 0)),
        ],
        footprints: [262_144, 1_000_000]);

    /// <summary>A run of every case at toy sizes, to check the whole pipeline in seconds.</summary>
    public static IReadOnlyList<ComparisonCase> Quick() => Build(
        ringSizes: [64, 128, 256],
        ringMessages: 100,
        peerRing: 128,
        workloads:
        [
            ("threadring", new RunOptions(0, 0, 10_000)),
            ("parallelthreadring", new RunOptions(0, 0, 503 * 20)),
            ("pingpong", new RunOptions(0, 10_000, 0)),
            ("countingactor", new RunOptions(0, 10_000, 0)),
            ("producerconsumer", new RunOptions(0, 10_000, 0)),
            ("skynet", new RunOptions(1_000, 0, 0)),
        ],
        footprints: [1_000, 4_000]);

    private static List<ComparisonCase> Build(IEnumerable<long> ringSizes, long ringMessages, long peerRing, (string Name, RunOptions Sizes)[] workloads, long[] footprints)
    {
        var cases = new List<ComparisonCase>();
        foreach (var n in ringSizes)
        {
            cases.AddRange(Workers.Select(w => new ComparisonCase("ring", new RunOptions(n, ringMessages, 0), w, WithPeers: n == peerRing)));
        }

        foreach (var (name, sizes) in workloads)
        {
            cases.AddRange(Workers.Select(w => new ComparisonCase(name, sizes, w, WithPeers: true)));
        }

        cases.AddRange(footprints.Select(n => new ComparisonCase(ComparisonCase.Footprint, new RunOptions(n, 0, 0), 2)));
        return cases;
    }
}
