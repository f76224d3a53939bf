using System;
using System.Collections.Generic;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>A workload the quick runner knows: its sizes, how many messages a run sends, the right answer, and its implementations.</summary>
/// <param name="Name">What the command line calls it.</param>
/// <param name="Defaults">Sizes used when the command line gives none.</param>
/// <param name="ComparisonSizes">Sizes of the short comparison that runs with no workload named.</param>
/// <param name="Describe">The sizes that matter to this workload, as text.</param>
/// <param name="Messages">Messages (hops, threads for Skynet) a run handles, the denominator of the per-message figures.</param>
/// <param name="Expected">The result a correct run returns.</param>
/// <param name="Implementations">The ways to run it; the first is the green-thread one.</param>
internal sealed record WorkloadSpec(
    string Name,
    RunOptions Defaults,
    RunOptions ComparisonSizes,
    Func<RunOptions, string> Describe,
    Func<RunOptions, long> Messages,
    Func<RunOptions, long> Expected,
    IReadOnlyList<Implementation> Implementations);
