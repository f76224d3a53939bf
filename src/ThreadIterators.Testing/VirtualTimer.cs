using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Testing;

/// <summary>A timer of a <see cref="VirtualClock"/>: fires when the controller moves the clock to its deadline.</summary>
internal sealed class VirtualTimer(VirtualClock clock, TimerCallback callback, object? state) : ITimer
{
    /// <summary>The deadline in virtual ticks, or -1 while disarmed. Under the clock's lock.</summary>
    internal long Due { get; private set; } = -1;

    /// <summary>The period in ticks, or 0 for a one-shot timer. Under the clock's lock.</summary>
    private long _period;

    public bool Change(TimeSpan dueTime, TimeSpan period)
    {
        clock.Change(this, dueTime, period);
        return true;
    }

    public void Dispose() => clock.Remove(this);

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>Sets the deadline and period. Under the clock's lock.</summary>
    internal void Arm(long due, long period)
    {
        Debug.Assert(clock.HoldsLock, "A virtual timer's deadline and period are written without the clock's lock.");
        Due = due;
        _period = period;
    }

    /// <summary>Disarms a one-shot timer, or moves a periodic one to its next deadline. Under the clock's lock.</summary>
    internal void Fired()
    {
        Debug.Assert(clock.HoldsLock, "A virtual timer's deadline is moved without the clock's lock.");
        Due = _period == 0 ? -1 : Due + _period;
    }

    /// <summary>Runs the callback. Outside the lock: it re-arms timers.</summary>
    internal void Run() => callback(state);
}
