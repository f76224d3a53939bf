using System;

namespace ThreadIterators;

/// <summary>
/// Describes a turn of a green thread that has held its worker longer than
/// <see cref="SchedulerOptions.LongTurnThreshold"/>; see <see cref="Scheduler.LongTurn"/>.
/// </summary>
/// <remarks>Immutable; raised on the scheduler's watchdog thread while the turn is still going on.</remarks>
public sealed class LongTurnEventArgs : EventArgs
{
    internal LongTurnEventArgs(GreenThread thread, int workerIndex, TimeSpan duration, TimeSpan gcPause)
    {
        Thread = thread;
        WorkerIndex = workerIndex;
        Duration = duration;
        GcPause = gcPause;
    }

    /// <summary>Gets the green thread whose turn holds the worker.</summary>
    public GreenThread Thread { get; }

    /// <summary>Gets the index of the worker it holds, from 0 to <see cref="Scheduler.WorkerCount"/> - 1.</summary>
    public int WorkerIndex { get; }

    /// <summary>
    /// Gets how long the turn had lasted when it was reported, <see cref="GcPause"/> included: at least the threshold
    /// plus that pause (the watchdog looks every millisecond or so).
    /// </summary>
    public TimeSpan Duration { get; }

    /// <summary>
    /// Gets how much of <see cref="Duration"/> the runtime spent paused for garbage collection, every thread stopped.
    /// The threshold is compared with the turn's own time, <see cref="Duration"/> less this, so a long collection alone
    /// never makes a turn long; zero when none overlapped it.
    /// </summary>
    public TimeSpan GcPause { get; }
}
