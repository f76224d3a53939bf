using System;
using System.Threading;

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
        var timer = Claim(thread);
        var timers = thread.Scheduler.Timers;
        timers.Schedule(timer, timers.DeadlineAfter(_duration));
        return EventOutcome.Parked;
    }

    /// <summary>The scheduler was disposed while the thread slept (its queue forgot the entry): frees the entry for a later yield.</summary>
    internal override void Abandon(GreenThread thread)
    {
        for (var timer = _timer; timer is not null; timer = Volatile.Read(ref timer.Next))
        {
            timer.Release(thread);
        }
    }

    internal override bool TryInterrupt(GreenThread thread)
    {
        for (var timer = _timer; timer is not null; timer = Volatile.Read(ref timer.Next))
        {
            if (timer.Sleeper == thread)
            {
                return timer.TryInterrupt(thread, thread.Scheduler.Timers);
            }
        }

        return false;
    }

    /// <inheritdoc/>
    public override string ToString() => $"Event.Sleep({_duration})";

    /// <summary>
    /// An entry of this sleep claimed by <paramref name="thread"/>: the first one free. Two green threads sleeping on
    /// one event at once (it is an object they can share) each need an entry; a second one is linked behind the first
    /// for good, where a stop of its thread can find it, and reused by later sleeps.
    /// </summary>
    private SleepTimer Claim(GreenThread thread)
    {
        for (var timer = _timer; timer is not null; timer = Volatile.Read(ref timer.Next))
        {
            if (timer.TryClaim(thread))
            {
                return timer;
            }
        }

        var created = new SleepTimer();
        created.TryClaim(thread);
        while (true)
        {
            var next = Volatile.Read(ref _timer.Next);
            created.Next = next;
            if (Interlocked.CompareExchange(ref _timer.Next, created, next) == next)
            {
                return created;
            }
        }
    }
}
