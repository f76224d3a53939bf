using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators.Testing;

/// <summary>
/// Runs a green-thread test under many seeded schedules on one OS thread, stops at the first that fails, and
/// replays a failing one exactly from its seed. The scheduler owns every scheduling point, since every
/// <c>yield return</c> is one, so nothing is rewritten or instrumented: each run's scheduler hands every decision
/// (which runnable thread takes the next step, when a timer fires) to a seeded strategy, and its time is virtual,
/// moving only when a timer fires.
/// </summary>
/// <remarks>
/// <para>
/// The test is a green-thread body given its scheduler: the same code runs on an ordinary multi-worker scheduler
/// (spawn it and wait). A run fails when a thread ends with an exception nothing observed (a failed assertion in any
/// thread, the test's own included), when no thread can run and nothing can wake one (a deadlock; the report holds
/// the wait-for graph), or when it takes more than <see cref="ExplorationOptions.MaxSteps"/> steps.
/// </para>
/// <para>
/// Work outside the scheduler (<see cref="ExplorationOptions.OutsideWork"/>): undeclared, a run that only outside
/// work could move on, or a thread woken from another OS thread, fails. Declared, every completion from outside (a
/// task completing, a token canceled, a channel's wait), even one that had happened when its thread yielded, is held
/// until nothing else can run (or, under <see cref="OutsideWork.Anytime"/>, at any step), and then the strategy picks
/// which waiting thread's work the run waits for, so outside work completes in a seeded order.
/// </para>
/// </remarks>
public static class Exploration
{
    /// <summary>
    /// Runs <paramref name="test"/> under <see cref="ExplorationOptions.Iterations"/> seeds, stopping at the first
    /// failing run.
    /// </summary>
    /// <param name="test">The test: makes the body of its first green thread, given the run's scheduler. Called once per run.</param>
    /// <param name="options">The runs, strategy and bounds; the defaults if null.</param>
    /// <returns>The first failing run, or the last run if none failed.</returns>
    public static ExplorationResult Explore(Func<Scheduler, IEnumerable<Event>> test, ExplorationOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(test);
        options ??= new ExplorationOptions();
        options.Validate();
        var stopwatch = Stopwatch.StartNew();
        var expected = ExpectedSteps(test, options);
        ScheduleController? run = null;
        var seed = options.FirstSeed;
        var iteration = 0;
        while (iteration < options.Iterations)
        {
            seed = options.FirstSeed + iteration;
            iteration++;
            run = RunOnce(test, seed, options, expected);
            if (run.Failure != ExplorationFailure.None)
            {
                break;
            }
        }

        return new ExplorationResult(options.Strategy, iteration, seed, run!, stopwatch.Elapsed);
    }

    /// <summary>Runs <paramref name="test"/> once under <paramref name="seed"/>, as <see cref="Explore"/> ran that seed.</summary>
    /// <param name="test">The test, as given to <see cref="Explore"/>.</param>
    /// <param name="seed">The seed of the run to repeat: <see cref="ExplorationResult.Seed"/>.</param>
    /// <param name="options">The options the exploration had (the strategy and its depth matter); the defaults if null.</param>
    /// <returns>The run; its <see cref="ExplorationResult.TraceHash"/> equals the explored run's when the replay is exact.</returns>
    public static ExplorationResult Replay(Func<Scheduler, IEnumerable<Event>> test, int seed, ExplorationOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(test);
        options ??= new ExplorationOptions();
        options.Validate();
        var stopwatch = Stopwatch.StartNew();
        var run = RunOnce(test, seed, options, ExpectedSteps(test, options));
        return new ExplorationResult(options.Strategy, 1, seed, run, stopwatch.Elapsed);
    }

    /// <summary>
    /// PCT draws its change points from the steps a run is expected to take: those of a first run under the random
    /// strategy with seed 0, the same for <see cref="Explore"/> and <see cref="Replay"/>, so a seed alone replays.
    /// </summary>
    private static int ExpectedSteps(Func<Scheduler, IEnumerable<Event>> test, ExplorationOptions options) =>
        options.Strategy == ExplorationStrategy.Pct ? RunOnce(test, 0, new ExplorationOptions { Strategy = ExplorationStrategy.Random, MaxSteps = options.MaxSteps, OutsideWaitTimeout = options.OutsideWaitTimeout, OutsideWork = options.OutsideWork, TraceLength = 1 }, 0).Steps : 0;

    private static ScheduleController RunOnce(Func<Scheduler, IEnumerable<Event>> test, int seed, ExplorationOptions options, int expectedSteps)
    {
        IScheduleStrategy strategy = options.Strategy == ExplorationStrategy.Pct ? new PctStrategy(seed, options.PctDepth, expectedSteps) : new RandomStrategy(seed);
        var clock = new VirtualClock();
        var run = new ScheduleController(strategy, options, clock);
        var scheduler = new Scheduler(new SchedulerOptions
        {
            WorkerCount = 1,
            Name = $"explored, seed {seed}",
            TimeProvider = clock,
            LongTurnThreshold = Timeout.InfiniteTimeSpan,
            Controller = run,
        });
        try
        {
            run.Attach(scheduler);
            scheduler.UnobservedFault += (_, e) => run.Fail(ExplorationFailure.Exception, e.Exception, $"{e.Thread} ended with an exception that nothing observed: {e.Exception.GetType().Name}: {e.Exception.Message}");
            scheduler.Spawn(test(scheduler), "test");
            scheduler.Workers[0].RunDrivenHere();
        }
        finally
        {
            // Ends whatever a failed run left parked (their finally blocks run here), and reports every fault that
            // nothing observed: a run that otherwise passed fails with the first.
            scheduler.Dispose();
        }

        return run;
    }
}
