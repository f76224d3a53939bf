using System;

namespace ThreadIterators;

/// <summary>
/// Parks the yielding thread until a deadline measured from the moment it parks on the event, right after the yield
/// (or, when its step budget ran out at that yield, at the start of its next turn). One instance per call of
/// <see cref="Event.Sleep(TimeSpan)"/>; it may be yielded again, each time starting a new sleep.
/// </summary>
/// <remarks>
/// The worker running the sleeping thread parks it; the scheduler's timer queue fires its entry, which makes the
/// thread ready; the disposing thread abandons it.
/// </remarks>
internal sealed class SleepEvent : Event
{
    /// <summary>How long each sleep lasts.</summary>
    private readonly TimeSpan _duration;

    /// <summary>The one timer entry of this sleep, reused by every yield of it.</summary>
    private readonly SleepTimer _timer = new();

    internal SleepEvent(TimeSpan duration) => _duration = duration;

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        // Two green threads sleeping on one event at once (it is an object they can share) each need an entry; the
        // second gets one of its own rather than a wrong wake-up.
        var timer = _timer.TryClaim(thread) ? _timer : NewClaimed(thread);
        var timers = thread.Scheduler.Timers;
        timers.Schedule(timer, timers.DeadlineAfter(_duration));
        return EventOutcome.Parked;
    }

    /// <summary>The scheduler was disposed while the thread slept (its queue forgot the entry): frees the entry for a later yield.</summary>
    internal override void Abandon(GreenThread thread) => _timer.Release(thread);

    /// <inheritdoc/>
    public override string ToString() => $"Event.Sleep({_duration})";

    /// <summary>A fresh entry already claimed by <paramref name="thread"/>.</summary>
    private static SleepTimer NewClaimed(GreenThread thread)
    {
        var timer = new SleepTimer();
        timer.TryClaim(thread);
        return timer;
    }
}
