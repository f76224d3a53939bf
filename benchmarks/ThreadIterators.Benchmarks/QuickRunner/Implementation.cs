using System;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>One way of running a workload.</summary>
/// <param name="Name">What <c>--impl</c> selects: <c>threaditerators</c>, <c>tasks</c>, <c>threads</c> or <c>threadpool</c>.</param>
/// <param name="UsesWorkers">Whether it runs on a <see cref="Scheduler"/> with <c>--workers</c> OS threads.</param>
/// <param name="Run">Runs once and returns the result to verify; the scheduler is null unless <paramref name="UsesWorkers"/>.</param>
/// <param name="Resize">Shrinks the sizes for implementations too slow for the full workload (OS threads), or null.</param>
internal sealed record Implementation(string Name, bool UsesWorkers, Func<Scheduler?, RunOptions, long> Run, Func<RunOptions, RunOptions>? Resize = null)
{
    /// <summary>The green-thread implementation's name.</summary>
    public const string GreenThreads = "threaditerators";

    /// <summary>The async/await with channels baseline's name.</summary>
    public const string Tasks = "tasks";

    /// <summary>The OS-thread implementation's name.</summary>
    public const string Threads = "threads";

    /// <summary>The plain thread-pool baseline's name (one work item per message).</summary>
    public const string ThreadPool = "threadpool";
}
