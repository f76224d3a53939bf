using System;

namespace ThreadIterators;

/// <summary>
/// Describes a turn of a green thread that has held its worker longer than
/// <see cref="SchedulerOptions.LongTurnThreshold"/>; see <see cref="Scheduler.LongTurn"/>.
/// </summary>
/// <remarks>Immutable; raised on the scheduler's watchdog thread while the turn is still going on.</remarks>
public sealed class LongTurnEventArgs : EventArgs
{
    internal LongTurnEventArgs(GreenThread thread, int workerIndex, TimeSpan duration)
    {
        Thread = thread;
        WorkerIndex = workerIndex;
        Duration = duration;
    }

    /// <summary>Gets the green thread whose turn holds the worker.</summary>
    public GreenThread Thread { get; }

    /// <summary>Gets the index of the worker it holds, from 0 to <see cref="Scheduler.WorkerCount"/> - 1.</summary>
    public int WorkerIndex { get; }

    /// <summary>Gets how long the turn had lasted when it was reported (at least the threshold; the watchdog looks every millisecond or so).</summary>
    public TimeSpan Duration { get; }
}
