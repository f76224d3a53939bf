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

    /// <summary>
    /// Gets how long one turn of a green thread (its steps between two waits) may hold a worker before
    /// <see cref="Scheduler.LongTurn"/> reports it. Defaults to one second; <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>
    /// reports nothing.
    /// </summary>
    /// <remarks>
    /// A turn that long starves every other green thread of its worker: it blocks (a synchronous wait, a lock, a
    /// blocking call) or computes without yielding. Measured from outside by the scheduler's watchdog thread, which
    /// looks every millisecond or so, so the hop path pays nothing for it; a report can come up to a few milliseconds late.
    /// </remarks>
    public TimeSpan LongTurnThreshold { get; init; } = TimeSpan.FromSeconds(1);
}
