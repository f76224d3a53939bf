using System;

namespace ThreadIterators;

/// <summary>
/// Parks the yielding thread until a deadline measured from the moment it was yielded. One instance per call of
/// <see cref="Event.Sleep(TimeSpan)"/>; it may be yielded again, each time starting a new sleep.
/// </summary>
/// <remarks>The worker running the sleeping thread parks it; the timer thread makes it ready.</remarks>
internal sealed class SleepEvent : Event
{
    /// <summary>How long each sleep lasts.</summary>
    private readonly TimeSpan _duration;

    internal SleepEvent(TimeSpan duration) => _duration = duration;

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        thread.Scheduler.Timers.Add(TimerQueue.DeadlineAfter(_duration), thread);
        return EventOutcome.Parked;
    }

    /// <inheritdoc/>
    public override string ToString() => $"Event.Sleep({_duration})";
}
