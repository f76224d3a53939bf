using System;

namespace ThreadIterators;

/// <summary>How a <see cref="Scheduler"/> is set up.</summary>
/// <remarks>
/// Read once, by the scheduler's constructor; not thread-safe to change while another thread constructs with it.
/// </remarks>
public sealed class SchedulerOptions
{
    /// <summary>
    /// Gets an optional name for the scheduler, which its <see cref="Scheduler.ToString"/>, its worker threads' names
    /// and the exceptions that involve more than one scheduler show. Each scheduler is also numbered in the process.
    /// </summary>
    public string? Name { get; init; }

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

    /// <summary>
    /// Gets where all of the scheduler's time comes from: when a sleep (<see cref="Event.Sleep(TimeSpan)"/>) ends, and
    /// every other deadline of its green threads. Defaults to <see cref="TimeProvider.System"/>; a test can pass a fake
    /// provider and advance its clock by hand, and with it every sleep.
    /// </summary>
    /// <remarks>
    /// With <see cref="TimeProvider.System"/> the scheduler fires deadlines from an OS thread of its own, not from
    /// <see cref="TimeProvider.CreateTimer"/>'s thread-pool callbacks, which blocking calls elsewhere in the process can
    /// delay. With any other provider it arms one <see cref="TimeProvider.CreateTimer"/> timer for the earliest
    /// deadline, and fires due deadlines from its callback: a fake provider's clock advance wakes the sleepers it
    /// passes, on the thread that advances it. What measures the machine rather than program time stays on
    /// <see cref="System.Diagnostics.Stopwatch"/> whatever this is: <see cref="LongTurnThreshold"/> (a turn's real
    /// length), idle workers' spinning, and the timeout of <see cref="Scheduler.WaitForAll(TimeSpan)"/>, which blocks an
    /// OS thread.
    /// </remarks>
    /// <exception cref="System.ArgumentNullException">Set to null (thrown by the <see cref="Scheduler"/> constructor).</exception>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;

    /// <summary>
    /// Gets the controller of a driven run (an exploration, in the testing package), which makes every scheduling
    /// decision; null for an ordinary scheduler. Requires one worker.
    /// </summary>
    internal IRunController? Controller { get; init; }
}
