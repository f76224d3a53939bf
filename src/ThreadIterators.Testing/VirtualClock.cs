using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators.Testing;

/// <summary>
/// The time of an explored run (Go's <c>testing/synctest</c> bubble): it stands still while any thread can run, and
/// jumps to the next deadline when the controller fires a timer, because nothing else can run or because the
/// strategy chose to. So sleeps, timeouts and timers of any length take no real time, and fire in a seeded order
/// relative to the threads' steps.
/// </summary>
/// <remarks>
/// Timers are created and changed by the scheduler's timer queue on the worker, and by asks made from outside; fired
/// only by the controller, on the worker. Under a lock, since the second may come from another OS thread.
/// </remarks>
internal sealed class VirtualClock : TimeProvider
{
    /// <summary>What <see cref="GetUtcNow"/> reads at the start of a run: a fixed date, so a run's trace does not depend on the day.</summary>
    private static readonly DateTimeOffset s_start = new(2000, 1, 1, 0, 0, 0, TimeSpan.Zero);

    private readonly object _lock = new();

    private readonly List<VirtualTimer> _timers = [];

    /// <summary>Virtual time since the start, in ticks of 100 ns.</summary>
    private long _now;

    /// <inheritdoc/>
    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    /// <summary>Gets the virtual time since the run started.</summary>
    internal TimeSpan Elapsed => TimeSpan.FromTicks(Volatile.Read(ref _now));

    /// <inheritdoc/>
    public override long GetTimestamp() => Volatile.Read(ref _now);

    /// <inheritdoc/>
    public override DateTimeOffset GetUtcNow() => s_start + Elapsed;

    /// <inheritdoc/>
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = new VirtualTimer(this, callback, state);
        lock (_lock)
        {
            _timers.Add(timer);
        }

        timer.Change(dueTime, period);
        return timer;
    }

    /// <summary>Gets a value indicating whether the calling thread holds the clock's lock; for its timers' DEBUG checks, as the lock is private.</summary>
    internal bool HoldsLock => Monitor.IsEntered(_lock);

    /// <summary>Gets a value indicating whether any timer is armed.</summary>
    internal bool AnyPending
    {
        get
        {
            lock (_lock)
            {
                return Earliest() is not null;
            }
        }
    }

    /// <summary>
    /// Moves the time to the earliest armed timer's deadline (never back) and runs its callback on the calling
    /// thread; returns the time it fired at, or null if none is armed.
    /// </summary>
    internal TimeSpan? FireEarliest()
    {
        VirtualTimer? timer;
        lock (_lock)
        {
            timer = Earliest();
            if (timer is null)
            {
                return null;
            }

            Volatile.Write(ref _now, Math.Max(_now, timer.Due));
            timer.Fired();
        }

        timer.Run();
        return Elapsed;
    }

    /// <summary>Arms or disarms <paramref name="timer"/>.</summary>
    internal void Change(VirtualTimer timer, TimeSpan dueTime, TimeSpan period)
    {
        lock (_lock)
        {
            timer.Arm(dueTime == Timeout.InfiniteTimeSpan ? -1 : _now + dueTime.Ticks, period == Timeout.InfiniteTimeSpan || period == TimeSpan.Zero ? 0 : period.Ticks);
        }
    }

    /// <summary>Forgets a disposed timer.</summary>
    internal void Remove(VirtualTimer timer)
    {
        lock (_lock)
        {
            _timers.Remove(timer);
        }
    }

    /// <summary>The armed timer with the earliest deadline; the one created first among equals. Under the lock.</summary>
    private VirtualTimer? Earliest()
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The virtual clock's timer list is read without the clock's lock.");
        VirtualTimer? earliest = null;
        foreach (var timer in _timers)
        {
            if (timer.Due >= 0 && (earliest is null || timer.Due < earliest.Due))
            {
                earliest = timer;
            }
        }

        return earliest;
    }
}
