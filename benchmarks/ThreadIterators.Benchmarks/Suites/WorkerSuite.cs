using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Base of every suite: the worker-count parameter and one scheduler per value of it, so scheduler start-up is not
/// measured. The Task baselines ignore the parameter and run on the thread pool, so each table shows them once per
/// worker count, as the ratio's denominator.
/// </summary>
[Config(typeof(SuiteConfig))]
public abstract class WorkerSuite
{
    /// <summary>Gets or sets the OS threads the green threads run on.</summary>
    [Params(1, 2)]
    public int Workers { get; set; }

    /// <summary>Gets the scheduler of the green-thread runs.</summary>
    protected Scheduler Scheduler { get; private set; } = null!;

    [GlobalSetup]
    public void Setup() => Scheduler = new Scheduler(Workers);

    [GlobalCleanup]
    public void Cleanup() => Scheduler.Dispose();
}
