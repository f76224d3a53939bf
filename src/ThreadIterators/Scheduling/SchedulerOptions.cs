using System;

namespace ThreadIterators;

/// <summary>How a <see cref="Scheduler"/> is set up.</summary>
/// <remarks>
/// Read once, by the scheduler's constructor; not thread-safe to change while another thread constructs with it.
/// </remarks>
public sealed class SchedulerOptions
{
    /// <summary>Gets how many OS threads run green threads; 1 gives deterministic coroutines. Defaults to one per processor.</summary>
    public int WorkerCount { get; init; } = Environment.ProcessorCount;

    /// <summary>Gets where ready threads run. Defaults to <see cref="Scheduler.DefaultPolicy"/>.</summary>
    public SchedulingPolicy Policy { get; init; } = Scheduler.DefaultPolicy;
}
