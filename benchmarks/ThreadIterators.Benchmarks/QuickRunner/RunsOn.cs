namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>What an implementation's <c>--workers</c> count limits.</summary>
internal enum RunsOn
{
    /// <summary>A <see cref="ThreadIterators.Scheduler"/> with that many workers, under each <c>--policy</c>.</summary>
    Scheduler,

    /// <summary>
    /// The .NET thread pool, limited to that many threads in a process of its own (async/await, the actor
    /// libraries, plain work items): the same number of OS threads a scheduler gets.
    /// </summary>
    ThreadPool,

    /// <summary>OS threads of its own, one per actor: the count does not apply, and it runs once.</summary>
    OwnThreads,
}
