using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using Microsoft.Coyote;
using Microsoft.Coyote.Actors;
using Microsoft.Coyote.Logging;
using Microsoft.Coyote.SystematicTesting;
using ThreadIterators.Testing;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>
/// Runs a Coyote test actor under Coyote's <see cref="TestingEngine"/> as its documentation shows, with the strategy
/// that matches ours: uniformly random, or PCT (Coyote's prioritization strategy, unfair, with the same number of
/// priority change points). The engine stops at the first bug, as <see cref="Exploration.Explore"/> does.
/// </summary>
internal static class CoyotePeer
{
    public static CoyoteRun Explore(Type test, bool isFixed, ExplorationStrategy strategy, uint seed, int iterations, int pctDepth = 3)
    {
        var configuration = Configuration.Create()
            .WithTestingIterations((uint)iterations)
            .WithRandomGeneratorSeed(seed)
            .WithVerbosityEnabled(VerbosityLevel.None)
            .WithConsoleLoggingEnabled(false)
            .WithTelemetryEnabled(false);
        configuration = strategy == ExplorationStrategy.Pct
            ? configuration.WithPrioritizationStrategy(isFair: false, priorityChangeBound: (uint)pctDepth)
            : configuration.WithRandomStrategy();
        var stopwatch = Stopwatch.StartNew();
        using var engine = TestingEngine.Create(configuration, (IActorRuntime runtime) => runtime.CreateActor(test, new Setup(isFixed)));

        // The engine writes its progress to the console whatever the verbosity; the report would drown in it.
        using var logger = new TextWriterLogger(TextWriter.Null, VerbosityLevel.None);
        engine.SetLogger(logger);
        engine.Run();
        stopwatch.Stop();
        var report = engine.TestReport;
        var runs = report.NumOfExploredFairPaths + report.NumOfExploredUnfairPaths;
        return new CoyoteRun(runs, report.NumOfFoundBugs > 0 ? report.BugReports.First() : null, stopwatch.Elapsed);
    }
}
