using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Base of every suite: the worker-count and scheduling-policy parameters and one scheduler per combination, so
/// scheduler start-up is not measured. The Task baselines ignore both and run on the thread pool, so each table shows
/// them once per combination, as the ratio's denominator.
/// </summary>
[Config(typeof(SuiteConfig))]
public abstract class WorkerSuite
{
    /// <summary>Gets or sets the OS threads the green threads run on.</summary>
    [Params(1, 2)]
    public int Workers { get; set; }

    /// <summary>Gets or sets where the scheduler runs ready threads.</summary>
    [ParamsAllValues]
    public SchedulingPolicy Policy { get; set; }

    /// <summary>Gets the scheduler of the green-thread runs.</summary>
    protected Scheduler Scheduler { get; private set; } = null!;

    [GlobalSetup]
    public void Setup() => Scheduler = new Scheduler(new SchedulerOptions { WorkerCount = Workers, Policy = Policy });

    [GlobalCleanup]
    public void Cleanup() => Scheduler.Dispose();
}
