using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The timer entry of one time branch of a choice (a sleep among its branches, or the deadline of a
/// <see cref="TimedEvent{TEvent}"/>): fires the branch for the wait it was armed for once that wait's deadline has
/// passed. Lazy: a wait that ends before its deadline leaves the entry where it is, and the next wait only moves
/// the deadline it will be checked against, so a timeout that does not expire costs no timer-queue operation.
/// </summary>
/// <remarks>
/// <para>
/// Armed by the worker running the choice's thread (<see cref="Arm"/>); fired on the timer queue's firing thread. A
/// time branch is looked at after the choice's other branches, so a deadline already passed never wins over a
/// message already there. The steps:
/// </para>
/// <list type="number">
/// <item>Arm, as the branch enlists: write the wait's deadline, then its generation with an interlocked exchange (a
/// full fence), then read whether the entry is pending; if not, schedule it for the deadline. A wait that goes on from
/// the same yield (its chosen branch lost what it was woken for) keeps the deadline a wait of that yield armed, so a
/// timeout bounds the whole wait of one yield; only if one did (<see cref="ArmedGeneration"/> against
/// <see cref="Choice.FirstWaitOfYield"/>): a look that finds a branch ready after all stops enlisting before the time
/// branch, which comes last, so the entry may still hold an earlier yield's long-past deadline.</item>
/// <item>Withdrawal does nothing: the entry stays where it is, for the next wait.</item>
/// <item>Fire, after the queue marked the entry not pending: a full fence, then read the generation and the deadline.
/// If that wait is over (<see cref="Choice.IsWaiting"/> false), stop, leaving the entry unscheduled. If its deadline is
/// still ahead (a later wait armed it), schedule the entry for it. Otherwise fire the branch for that generation.</item>
/// </list>
/// <para>
/// By the fences of steps 1 and 3, either the arming thread sees the entry pending and its fire sees the new
/// generation, or it sees it not pending and schedules it. Why laziness is sound: the branch's event is fixed, so its duration is, and the clock only moves forward; every
/// deadline armed is therefore at least every earlier one. An entry still pending was scheduled for an earlier wait's
/// deadline or this one's, so it fires no later than this wait's deadline, and <see cref="Fire"/> then looks at the
/// wait armed at that moment: it fires the branch if that wait's deadline has passed, moves the entry to it if not,
/// and lets the entry go if no wait is on. A wait can only be missed if the entry is not pending when it is armed,
/// and then <see cref="Arm"/> schedules it.
/// </para>
/// <para>
/// The price: the entry outlives the wait by up to one duration, keeping the choice reachable from the queue until
/// then, and the queue wakes once for it. Only one entry per time branch exists, however many waits there are. Per
/// wait: a clock read and an interlocked exchange, and no timer-queue operation unless the entry fired since the last
/// wait.
/// </para>
/// </remarks>
internal sealed class TimeBranchTimer : TimerEntry
{
    /// <summary>The branch fired.</summary>
    private readonly ChoiceBranch _branch;

    /// <summary>The queue of the choice's thread's scheduler.</summary>
    private readonly TimerQueue _queue;

    /// <summary>The deadline of the wait armed last, in the queue's timestamps. Written before <see cref="_generation"/>.</summary>
    private long _deadline;

    /// <summary>The choice's generation of the wait armed last; 0 before the first.</summary>
    private long _generation;

    internal TimeBranchTimer(ChoiceBranch branch, TimerQueue queue)
    {
        _branch = branch;
        _queue = queue;
    }

    /// <summary>Gets the deadline of the wait armed last; 0 before the first. The worker running the choice's thread.</summary>
    internal long Deadline => _deadline;

    /// <summary>Gets the choice's generation of the wait armed last; 0 before the first. The worker running the choice's thread.</summary>
    internal long ArmedGeneration => _generation;

    /// <summary>Gets the queue the entry is in; a choice's thread stays on one scheduler.</summary>
    internal TimerQueue Queue => _queue;

    /// <summary>
    /// Arms the entry for wait <paramref name="generation"/>, due at <paramref name="deadline"/> (never earlier than the
    /// deadline of the wait armed before). The worker running the choice's thread.
    /// </summary>
    internal void Arm(long generation, long deadline)
    {
        Debug.Assert(deadline >= _deadline, $"{this} was armed for {deadline}, earlier than the deadline before it, {_deadline}.");
        Volatile.Write(ref _deadline, deadline);

        // A full fence: the generation is published before IsPending is read below, and Fire reads the generation
        // after the queue marked the entry not pending. So either this thread sees the entry pending and its fire
        // will see this wait, or it sees it not pending and schedules it.
        Interlocked.Exchange(ref _generation, generation);
        if (!IsPending)
        {
            _queue.Schedule(this, deadline);
        }
    }

    /// <inheritdoc/>
    internal override void Fire()
    {
        // The queue marked the entry not pending (under its lock) before calling this; read the wait after that.
        Interlocked.MemoryBarrier();
        var generation = Volatile.Read(ref _generation);
        var deadline = Volatile.Read(ref _deadline);
        if (!_branch.Choice.IsWaiting(generation))
        {
            // The wait it was armed for is over. A later wait that arms now finds the entry not pending and
            // schedules it; one that armed already and found it pending is the current generation, not this one.
            return;
        }

        if (_queue.Now < deadline)
        {
            // Armed by a later wait whose deadline is still ahead: check again then.
            _queue.Schedule(this, deadline);
            return;
        }

        _branch.Fire(generation);
    }

    /// <inheritdoc/>
    public override string ToString() => $"the timer of {_branch}";
}
