using System;
using System.Collections.Generic;
using System.Text;

namespace ThreadIterators.Testing;

/// <summary>
/// What <see cref="Exploration.Explore"/> found, or what one run of <see cref="Exploration.Replay"/> did: whether it
/// failed, the seed of the failing run, how, and the last steps that led there.
/// </summary>
public sealed class ExplorationResult
{
    internal ExplorationResult(ExplorationStrategy strategy, int iterations, int seed, ScheduleController run, TimeSpan elapsed)
    {
        Strategy = strategy;
        Iterations = iterations;
        Seed = seed;
        Failure = run.Failure;
        Exception = run.Exception;
        Description = run.Description;
        Steps = run.Steps;
        Trace = run.Trace;
        TraceHash = run.TraceHash;
        VirtualTime = run.Clock.Elapsed;
        Elapsed = elapsed;
    }

    /// <summary>Gets a value indicating whether a run failed.</summary>
    public bool Failed => Failure != ExplorationFailure.None;

    /// <summary>Gets the strategy the runs used.</summary>
    public ExplorationStrategy Strategy { get; }

    /// <summary>Gets the runs made: up to and including the failing one, or all of them.</summary>
    public int Iterations { get; }

    /// <summary>Gets the seed of the failing run (give it to <see cref="Exploration.Replay"/>), or of the last run if none failed.</summary>
    public int Seed { get; }

    /// <summary>Gets how the run ended.</summary>
    public ExplorationFailure Failure { get; }

    /// <summary>Gets the exception a thread ended with, for <see cref="ExplorationFailure.Exception"/>.</summary>
    public Exception? Exception { get; }

    /// <summary>Gets the failure in words: the exception, the wait-for graph of a deadlock, or the bound passed.</summary>
    public string? Description { get; }

    /// <summary>Gets the steps the run took: turns of a thread, and timer firings.</summary>
    public int Steps { get; }

    /// <summary>Gets the last steps of the run, oldest first (<see cref="ExplorationOptions.TraceLength"/> of them): each thread by name, what it resumed from, what it got, and what it yielded next.</summary>
    public IReadOnlyList<string> Trace { get; }

    /// <summary>Gets a hash of every step of the run: a replay that makes the same decisions with the same outcomes has the same hash.</summary>
    public ulong TraceHash { get; }

    /// <summary>Gets the virtual time the run's clock reached.</summary>
    public TimeSpan VirtualTime { get; }

    /// <summary>Gets the real time all the runs took.</summary>
    public TimeSpan Elapsed { get; }

    /// <summary>Returns the report: the verdict, the seed to replay, the failure, and the trace.</summary>
    /// <returns>The report.</returns>
    public override string ToString()
    {
        var text = new StringBuilder();
        if (!Failed)
        {
            text.Append($"No failure in {Iterations} runs ({Strategy}, seeds from {Seed - Iterations + 1} to {Seed}).");
            return text.ToString();
        }

        text.AppendLine($"{Failure} in run {Iterations} ({Strategy}), seed {Seed}, after {Steps} steps and {VirtualTime} of virtual time; Exploration.Replay(test, {Seed}) reproduces it (trace hash {TraceHash:x16}).");
        text.AppendLine(Description);
        if (Exception is not null)
        {
            text.AppendLine(Exception.ToString());
        }

        text.AppendLine($"The last {Trace.Count} steps:");
        foreach (var step in Trace)
        {
            text.Append("  ").AppendLine(step);
        }

        return text.ToString().TrimEnd();
    }
}
