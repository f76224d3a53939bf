namespace ThreadIterators;

/// <summary>
/// A <see cref="TimedEvent{TEvent}"/> done without a choice: the wait parks as a plain wait does, and the deadline is
/// a timer entry of the wait itself that takes the thread's wake-up back the way a stop does. Only some events have
/// one (<see cref="ITimedWaitSource"/>); for the rest the timed event runs a choice of the event and a sleep.
/// </summary>
/// <remarks>
/// Why: a choice looks at both branches, arms a generation, registers with each, is fired with a compare-and-swap and
/// withdraws every registration on resume. A receive that rarely times out pays all of that on every message; here it
/// pays a clock read and one exchange more than a plain receive. The thread's worker calls the event's methods, the
/// queue's firing thread <see cref="TimerEntry.Fire"/>. It mirrors the wait's hooks of <see cref="Event"/> that a timed
/// event passes on; not the branch protocol (<see cref="IChoosable"/>), since a timed event is never a branch.
/// </remarks>
internal abstract class TimedWait : TimerEntry
{
    /// <summary>Gets a value indicating whether the last wait timed out. The thread's worker.</summary>
    internal abstract bool TimedOut { get; }

    /// <summary>Gets the wait the thread is parked in, numbered from 1, or 0 if it is not parked in one whose deadline is still ahead. Any thread; for diagnostics.</summary>
    internal abstract long ParkedWait { get; }

    /// <summary>Gets the deadline of the wait armed last, in the scheduler's clock's timestamps; 0 before the first. Any thread; for diagnostics.</summary>
    internal abstract long Deadline { get; }

    /// <inheritdoc cref="Event.Park"/>
    internal abstract EventOutcome Park(GreenThread thread, Worker worker);

    /// <inheritdoc cref="Event.Resume"/>
    internal abstract EventOutcome Resume(GreenThread thread, Worker worker);

    /// <inheritdoc cref="Event.Abandon"/>
    internal abstract void Abandon(GreenThread thread);

    /// <inheritdoc cref="Event.TryInterrupt"/>
    internal abstract bool TryInterrupt(GreenThread thread);

    /// <inheritdoc cref="Event.CompleteInterrupt"/>
    internal abstract void CompleteInterrupt(GreenThread thread);
}
