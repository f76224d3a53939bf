using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using ThreadIterators.Benchmarks.ErlangComparison;
using ThreadIterators.Benchmarks.Peers.Coyote;
using ThreadIterators.Samples.Testing;
using ThreadIterators.Testing;

namespace ThreadIterators.Benchmarks.TestingComparison;

/// <summary>
/// <c>testing [--seeds S] [--iterations N] [--rounds R] [--runs-ours A] [--runs-coyote B] [--out FILE]</c>: the five
/// classic bugs of samples/Testing explored by <see cref="Exploration"/> and, written as Coyote actors, by Coyote's
/// testing engine, in the same process: the iterations each needs to find each bug (S explorations with different
/// seeds, at most N iterations each), and executions per second of each fixed program (A iterations ours, B Coyote's,
/// R rounds, the two sides alternating). Each of our failures is replayed from its seed and must give the same trace
/// hash; each fixed program must pass every run. Prints markdown; exits with 1 if a fix failed or a replay diverged.
/// </summary>
internal static class TestingCommand
{
    private const string Usage = "usage: testing [--seeds S] [--iterations N] [--rounds R] [--runs-ours A] [--runs-coyote B] [--out FILE]";

    public static int Execute(string[] args)
    {
        var settings = new TestingSettings(Seeds: 20, Iterations: 1_000, Rounds: 3, OursRuns: 2_000, CoyoteRuns: 200);
        string? output = null;
        try
        {
            for (var i = 1; i < args.Length; i += 2)
            {
                var value = i + 1 < args.Length ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value.");
                settings = args[i] switch
                {
                    "--seeds" => settings with { Seeds = Positive(value) },
                    "--iterations" => settings with { Iterations = Positive(value) },
                    "--rounds" => settings with { Rounds = Positive(value) },
                    "--runs-ours" => settings with { OursRuns = Positive(value) },
                    "--runs-coyote" => settings with { CoyoteRuns = Positive(value) },
                    "--out" => settings,
                    _ => throw new ArgumentException($"unknown argument '{args[i]}'."),
                };
                output = args[i] == "--out" ? value : output;
            }
        }
        catch (Exception error) when (error is ArgumentException or FormatException or OverflowException)
        {
            Console.Error.WriteLine($"{error.Message}\n{Usage}");
            return 2;
        }

        var report = Measure(settings, Console.Error);
        var text = report.ToMarkdown();
        Console.WriteLine(text);
        if (output is not null)
        {
            File.WriteAllText(output, text);
        }

        return report.Rows.All(r => r.Failures.Count == 0) ? 0 : 1;
    }

    /// <summary>Measures every program under both strategies; <paramref name="progress"/> hears a line per program and strategy.</summary>
    public static TestingReport Measure(TestingSettings settings, TextWriter progress)
    {
        var rows = new List<TestingRow>();
        foreach (var (bug, coyote) in ClassicBugs.All.Zip(CoyoteBugs.All))
        {
            foreach (var strategy in new[] { ExplorationStrategy.Random, ExplorationStrategy.Pct })
            {
                rows.Add(MeasureOne(bug, coyote, strategy, settings));
                progress.WriteLine(Invariant($"testing: {bug.Name}, {strategy}: done"));
            }
        }

        return new TestingReport(settings, rows, Invariant($"{MachineInfo.Processor}, {MachineInfo.Memory}, {MachineInfo.OperatingSystem}, .NET {Environment.Version}"));
    }

    private static TestingRow MeasureOne(ClassicBug bug, Type coyote, ExplorationStrategy strategy, TestingSettings settings)
    {
        var failures = new List<string>();

        // Warm both sides up (JIT, first-use costs) before anything is timed or counted.
        Exploration.Explore(bug.Fixed, Options(strategy, 0, 20));
        CoyotePeer.Explore(coyote, isFixed: true, strategy, seed: 0, iterations: 5);

        // Iterations to the bug: one exploration per seed on each side, alternating, so drift hits both alike.
        var ours = new List<int?>();
        var theirs = new List<int?>();
        for (var k = 0; k < settings.Seeds; k++)
        {
            var found = Exploration.Explore(bug.Buggy, Options(strategy, k * 100_000, settings.Iterations));
            ours.Add(found.Failed ? found.Iterations : null);
            if (found.Failed)
            {
                var replay = Exploration.Replay(bug.Buggy, found.Seed, Options(strategy, 0, 1));
                if (replay.TraceHash != found.TraceHash)
                {
                    failures.Add(Invariant($"ours: seed {found.Seed} replayed with trace hash {replay.TraceHash:x16}, found with {found.TraceHash:x16}"));
                }
            }

            var coyoteRun = CoyotePeer.Explore(coyote, isFixed: false, strategy, (uint)(k * 100_000), settings.Iterations);
            theirs.Add(coyoteRun.Failed ? coyoteRun.Iterations : null);
        }

        // Executions per second of the fixed program, which runs every iteration to the end; rounds alternate sides.
        var oursRates = new List<double>();
        var coyoteRates = new List<double>();
        for (var round = 0; round < settings.Rounds; round++)
        {
            var run = Exploration.Explore(bug.Fixed, Options(strategy, round * 1_000_000, settings.OursRuns));
            if (run.Failed)
            {
                failures.Add($"ours: the fix failed: {run.Description}");
            }

            oursRates.Add(run.Iterations / run.Elapsed.TotalSeconds);
            var coyoteRun = CoyotePeer.Explore(coyote, isFixed: true, strategy, (uint)(round * 1_000_000), settings.CoyoteRuns);
            if (coyoteRun.Failed)
            {
                failures.Add($"Coyote: the fix failed: {coyoteRun.Bug}");
            }

            coyoteRates.Add(coyoteRun.Iterations / coyoteRun.Elapsed.TotalSeconds);
        }

        return new TestingRow(bug.Name, strategy, ours, theirs, oursRates, coyoteRates, failures);
    }

    private static ExplorationOptions Options(ExplorationStrategy strategy, int firstSeed, int iterations) =>
        new() { Strategy = strategy, FirstSeed = firstSeed, Iterations = iterations };

    private static int Positive(string value) =>
        int.Parse(value, CultureInfo.InvariantCulture) is var n and > 0 ? n : throw new ArgumentException($"'{value}' is not a positive number.");

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
