using System;
using System.Diagnostics;
using System.Linq;
using ThreadIterators;
using ThreadIterators.Samples.Testing;
using ThreadIterators.Testing;

// Explores each classic bug under both strategies: how many runs each needs to find the bug (median over 20
// explorations with different seeds), and that the fix passes every run. Usage: dotnet run -c Release [--explorations N]
var explorations = args.Length == 2 && args[0] == "--explorations" ? int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture) : 20;
Console.WriteLine($"| bug | strategy | runs to the bug: median (range) over {explorations} explorations | fixed: runs passed | runs/s |");
Console.WriteLine("|---|---|---|---|---|");
foreach (var bug in ClassicBugs.All)
{
    foreach (var strategy in new[] { ExplorationStrategy.Random, ExplorationStrategy.Pct })
    {
        var runs = Enumerable.Range(0, explorations)
            .Select(k => Exploration.Explore(bug.Buggy, new ExplorationOptions { Strategy = strategy, FirstSeed = k * 10_000, Iterations = 1_000 }))
            .Select(r => r.Failed ? r.Iterations : int.MaxValue)
            .Order()
            .ToList();
        var fixedRuns = Exploration.Explore(bug.Fixed, new ExplorationOptions { Strategy = strategy, Iterations = 1_000 });
        string Show(int n) => n == int.MaxValue ? "not found" : n.ToString(System.Globalization.CultureInfo.InvariantCulture);
        Console.WriteLine($"| {bug.Name} | {strategy} | {Show(runs[runs.Count / 2])} ({Show(runs[0])}-{Show(runs[^1])}) | {(fixedRuns.Failed ? $"FAILED: {fixedRuns.Failure}" : fixedRuns.Iterations.ToString(System.Globalization.CultureInfo.InvariantCulture))} | {fixedRuns.Iterations / fixedRuns.Elapsed.TotalSeconds:F0} |");
    }
}

// A 30-second timeout under virtual time: the real time of one run (Replay, which is one run), median of 21.
Exploration.Explore(VirtualTimeout.Test, new ExplorationOptions { Iterations = 50 });
var times = Enumerable.Range(0, 21).Select(seed =>
{
    var stopwatch = Stopwatch.StartNew();
    var run = Exploration.Replay(VirtualTimeout.Test, seed);
    stopwatch.Stop();
    return run.Failed ? throw new InvalidOperationException(run.ToString()) : stopwatch.Elapsed.TotalMilliseconds;
}).Order().ToList();
Console.WriteLine();
Console.WriteLine($"A test of a 30-second timeout, one run: {times[10]:F3} ms median of 21 ({times[0]:F3}-{times[^1]:F3} ms), virtual time only.");
