using System;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Parks the yielding thread until a deadline measured from the moment it parks on the event, right after the yield
/// (or, when its step budget ran out at that yield, at the start of its next turn). One instance per call of
/// <see cref="Event.Sleep(TimeSpan)"/>; it may be yielded again, each time starting a new sleep.
/// </summary>
/// <remarks>
/// <para>
/// The worker running the sleeping thread parks it; the scheduler's timer queue fires its entry, which makes the
/// thread ready; the disposing thread abandons it.
/// </para>
/// <para>
/// As a branch of a <see cref="Choice"/> (and as the deadline of a <see cref="TimedEvent{TEvent}"/>) it waits for
/// time counted from the moment the choice registers with its branches, after finding none ready; it is then
/// looked at after every other branch, so a message already there wins over a deadline already passed. A branch
/// does not use the sleep's own entry but a lazy one of the branch (<see cref="TimeBranchTimer"/>). Only there may
/// the duration be zero (a poll: the branch completes at once if nothing else can) or
/// <see cref="Timeout.InfiniteTimeSpan"/> (never).
/// </para>
/// </remarks>
internal sealed class SleepEvent : Event, IChoosable
{
    /// <summary>How long each sleep lasts.</summary>
    private readonly TimeSpan _duration;

    /// <summary>The one timer entry of this sleep, reused by every yield of it.</summary>
    private readonly SleepTimer _timer = new();

    internal SleepEvent(TimeSpan duration) => _duration = duration;

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (_duration == TimeSpan.Zero)
        {
            // A zero sleep gives up the turn, as Event.Yield does; it is its own event so that it can be a branch.
            worker.YieldTurn(thread);
            return EventOutcome.Parked;
        }

        var timer = Claim(thread);
        var timers = thread.Scheduler.Timers;
        timers.Schedule(timer, timers.DeadlineAfter(_duration));
        return EventOutcome.Parked;
    }

    /// <summary>Gets the duration of each sleep.</summary>
    internal TimeSpan Duration => _duration;

    /// <inheritdoc/>
    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) =>
        _duration == TimeSpan.Zero ? EventOutcome.Continue : EventOutcome.Parked;

    /// <inheritdoc/>
    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker)
    {
        if (_duration == Timeout.InfiniteTimeSpan)
        {
            return true;
        }

        // A wait that goes on from the same yield (its chosen branch lost what it was woken for) keeps the deadline
        // an earlier wait of that yield armed: a timeout bounds the whole wait of one yield. Only if one did: a wait
        // whose look found a branch ready after all stops enlisting before the time branch, which is last, and the
        // deadline then still is an earlier yield's, long past.
        var timer = branch.Timer ??= new TimeBranchTimer(branch, thread.Scheduler.Timers);
        timer.Arm(generation, timer.ArmedGeneration >= branch.Choice.FirstWaitOfYield ? timer.Deadline : timer.Queue.DeadlineAfter(_duration));
        return true;
    }

    /// <summary>
    /// Nothing to undo: the branch's entry stays pending for a later wait, and a fire for this one reaches nothing
    /// (see <see cref="TimeBranchTimer"/>).
    /// </summary>
    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
    }

    /// <inheritdoc/>
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => EventOutcome.Continue;

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

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"a sleep of {_duration} to pass").Timer = true;
        }
    }

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
