namespace ThreadIterators.Testing;

/// <summary>How <see cref="Exploration"/> makes each scheduling decision of a run, from the run's seed.</summary>
public enum ExplorationStrategy
{
    /// <summary>Each decision picks uniformly among the runnable threads (and, while a timer is pending, firing it).</summary>
    Random,

    /// <summary>
    /// Probabilistic concurrency testing (Burckhardt et al., 2010): each thread gets a random priority when it is
    /// spawned, the highest runnable priority always runs, and at <see cref="ExplorationOptions.PctDepth"/> - 1 random
    /// steps the running thread drops below all others. Finds a bug that needs d ordered events with probability at
    /// least 1/(n·k^(d-1)) per run, for n threads and k steps.
    /// </summary>
    Pct,
}
