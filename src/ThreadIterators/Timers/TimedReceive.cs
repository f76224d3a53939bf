using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A mailbox receive with a timeout, without a choice: <c>mailbox.Recv().WithTimeout(t)</c>. The receiver parks with
/// the plain park mark, so a sender wakes it exactly as it wakes a plain receive; the deadline is this object's own
/// lazy timer entry, which, once the wait has lasted <c>t</c>, takes the receiver's wake-up back with the swap a stop
/// uses and makes the thread ready to time out.
/// </summary>
/// <remarks>
/// <para>
/// As a choice of the receive and a sleep, <c>WithTimeout</c> cost three times a plain receive per message: two looks,
/// a generation, two registrations, the choice's fire and two withdrawals, and a 25 ns clock read. This parks as a
/// plain receive does, with no chooser, so a sender wakes it exactly as it wakes a plain receive. <see cref="_state"/>
/// says which wait is on: its generation shifted left by one, with <see cref="Expired"/> set once its deadline has
/// passed; 0 while none is. The steps (the receiver's side is <c>Mailbox.TakeOrParkTimed</c> and <c>FinishTimed</c>):
/// </para>
/// <list type="number">
/// <item>Park, on the receiver's worker: take a message, or the end, if there is one. Otherwise (a zero timeout times
/// out at once) write the deadline, then the state (plain writes; one deadline per yield, however often the park is
/// retried), then park with the plain mark's swap.</item>
/// <item>Right after a successful park swap (a full fence), read the state. If it is this wait's, expired, a fire came
/// before the mark was set and could not take it: take it back with a stop's take (step 4), and if that succeeds the
/// thread is this worker's again and finishes at once (step 5). Otherwise, if the entry is not pending, schedule it
/// for the deadline (<see cref="ScheduleIfIdle"/>). The thread may already run elsewhere and arm a later wait: a second
/// schedule only moves the entry to an earlier deadline, which makes it look once more.</item>
/// <item>Fire, on the timer queue's firer, after it marked the entry not pending (a full fence): read the state. No
/// wait, or one already expired: stop, leaving the entry unscheduled (a later wait's step 2 schedules it). The deadline
/// still ahead (a later wait's): schedule for it. Otherwise swap the state to expired (failing if the wait ended
/// meanwhile), and take the mark (step 4); if that takes it, make the thread ready.</item>
/// <item>The take is a stop's (<c>Mailbox.TryInterruptReceive</c>): swap the park mark off as a sender would. The mark
/// counts as this wait's only if the state is still the expired one afterwards: a later wait publishes its state
/// before its own park swap, so a mark of a later wait implies a later state, visible after the take. A mark that is
/// not this wait's goes back; if a sender came while it was held (and woke nobody, finding no mark), the take wakes
/// the receiver as that sender would have.</item>
/// <item>Resume, or step 2's take: clear the state; take a message if one is there (a message that came by now wins
/// over the deadline, as in a choice's look), or the end; else the wait timed out if the state was expired, and
/// anything else is a runtime bug (a receiver woken with nothing), reported as a plain receive reports it.</item>
/// </list>
/// <para>
/// Steps 1-2 and 3 are a Dekker pair (the state written, then the park swap, then the state read; against the state's
/// swap, then the mark's): either the fire finds the mark, or the parker finds <see cref="Expired"/>. A stop takes the
/// mark as a sender does, and <see cref="CompleteInterrupt"/> clears the state, so a later fire finds no wait.
/// <c>TimedReceiveRaceTests</c> forces a fire before the park, and a fire that takes the next wait's mark, with and
/// without a message sent while it holds it (<c>TestHooks.BeforeTimedPark</c>, <c>AfterTimeoutExpired</c>); each
/// fails without its step.
/// </para>
/// <para>
/// The entry is lazy, as a choice's time branch is (see <see cref="TimeBranchTimer"/>): a wait that ends in time
/// leaves it pending, and the next wait only moves the deadline it is checked against. Deadlines only grow (one
/// duration, a clock that only moves forward), so a pending entry fires no later than the current wait's deadline. The
/// deadline reads the coarse clock where it can (<see cref="CoarseClock"/>). Against a plain receive, a message that
/// parks costs the coarse clock, four plain stores, one load after the park, and the resume's load and store: no
/// interlocked operation on the hop; while messages flow the entry fires once per timeout length, to find a later wait
/// and move to its deadline.
/// </para>
/// </remarks>
/// <typeparam name="T">The type of the mailbox's messages.</typeparam>
internal sealed class TimedReceive<T> : TimedWait
{
    /// <summary>In <see cref="_state"/>: the wait's deadline passed; whoever takes the park mark ends it timed out.</summary>
    internal const long Expired = 1;

    /// <summary>The deadline <see cref="TryArm"/> gives a wait with an infinite timeout, for which the entry is never scheduled.</summary>
    internal const long NoDeadline = long.MaxValue;

    /// <summary>The receive waited on; it holds the message.</summary>
    private readonly ReceiveEvent<T> _receive;

    /// <summary>The timed event this does the work of; messages name it.</summary>
    private readonly Event _event;

    /// <summary>How long each wait lasts at most.</summary>
    private readonly TimeSpan _timeout;

    /// <summary>The green thread the event is bound to; set by its first yield.</summary>
    private GreenThread? _owner;

    /// <summary>The queue of the owner's scheduler; set by the first wait that arms.</summary>
    private TimerQueue? _queue;

    /// <summary>The current wait's generation, shifted left by one, and <see cref="Expired"/>; 0 while no wait is on.</summary>
    private long _state;

    /// <summary>The deadline of the wait armed last, in the queue's timestamps. Written before <see cref="_state"/>.</summary>
    private long _deadline;

    /// <summary>The last generation armed. Owner only.</summary>
    private long _generation;

    /// <summary>Whether the last wait timed out. Owner only.</summary>
    private bool _timedOut;

    internal TimedReceive(ReceiveEvent<T> receive, TimeSpan timeout, Event @event)
    {
        _receive = receive;
        _timeout = timeout;
        _event = @event;
    }

    /// <inheritdoc/>
    internal override bool TimedOut => _timedOut;

    /// <inheritdoc/>
    internal override long ParkedWait =>
        Volatile.Read(ref _state) is var state && state != 0 && (state & Expired) == 0 && _receive.Mailbox.IsReceiverParked ? state >> 1 : 0;

    /// <inheritdoc/>
    internal override long Deadline => Volatile.Read(ref _deadline);

    /// <summary>Gets a value indicating whether <paramref name="state"/> is the current one (for a take of the park mark to count as this wait's). Any thread.</summary>
    internal bool IsState(long state) => Volatile.Read(ref _state) == state;

    /// <summary>Gets the current state, for the parker's one look after its park. Any thread.</summary>
    internal long State => Volatile.Read(ref _state);

    /// <inheritdoc/>
    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (_owner != thread)
        {
            Bind(thread);
        }

        return _receive.Mailbox.TakeOrParkTimed(thread, _receive, this, worker);
    }

    /// <inheritdoc/>
    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        // Woken by a sender (a message is there), the completion (the end is), or the firing thread (Expired is set).
        worker.Counters.WakeUps++;
        var state = Volatile.Read(ref _state);
        Volatile.Write(ref _state, 0);
        return _receive.Mailbox.FinishTimed(thread, _receive, this, (state & Expired) != 0);
    }

    /// <inheritdoc/>
    internal override void Abandon(GreenThread thread)
    {
        _receive.Mailbox.Abandon();
        Volatile.Write(ref _state, 0);
    }

    /// <inheritdoc/>
    internal override bool TryInterrupt(GreenThread thread) => Volatile.Read(ref _owner) == thread && _receive.Mailbox.TryInterruptReceive(thread);

    /// <inheritdoc/>
    internal override void CompleteInterrupt(GreenThread thread) => Volatile.Write(ref _state, 0);

    /// <summary>
    /// Publishes a wait, with its deadline, before the receiver parks: <paramref name="armed"/> is its state, and
    /// <paramref name="deadline"/> is <see cref="NoDeadline"/> for an infinite timeout. False for a zero timeout, which is a poll: the receive times out at once. The entry
    /// is scheduled after the park (<see cref="ScheduleIfIdle"/>), whose swap is the fence. The owner's worker.
    /// </summary>
    internal bool TryArm(GreenThread thread, out long armed, out long deadline)
    {
        deadline = 0;
        if (_timeout == TimeSpan.Zero)
        {
            armed = 0;
            return false;
        }

        if (_timeout == Timeout.InfiniteTimeSpan)
        {
            // Published only for diagnostics (ParkedWait); the entry is never scheduled.
            deadline = NoDeadline;
        }
        else
        {
            var queue = _queue ??= thread.Scheduler.Timers;
            deadline = queue.TimeoutDeadlineAfter(_timeout);
            Debug.Assert(deadline >= _deadline, $"{_event} was armed for {deadline}, earlier than the deadline before it, {_deadline}.");
            Volatile.Write(ref _deadline, deadline);
        }

        armed = ++_generation << 1;
        Volatile.Write(ref _state, armed);
        return true;
    }

    /// <summary>
    /// Right after the park's swap, which is a full fence between publishing the wait and this read of IsPending (Fire
    /// reads the state after the queue marked the entry not pending): either this sees the entry pending, and its
    /// fire sees the wait, or this schedules it. The thread may already run elsewhere and arm a later wait; scheduling
    /// the entry for this wait's deadline, earlier than that one's, only makes it look once more. The parking worker.
    /// </summary>
    internal void ScheduleIfIdle(long deadline)
    {
        if (!IsPending)
        {
            _queue!.Schedule(this, deadline);
        }
    }

    /// <summary>Ends a wait that did not park (or took its own wake-up back), with its result. The owner's worker.</summary>
    internal EventOutcome Ended(bool timedOut)
    {
        Volatile.Write(ref _state, 0);
        _timedOut = timedOut;
        return EventOutcome.Continue;
    }

    /// <summary>Records the result of a wait that resumed. The owner's worker.</summary>
    internal void Resolved(bool timedOut) => _timedOut = timedOut;

    /// <summary>Ends the wait that took its own wake-up back after its park. The owner's worker.</summary>
    internal void Clear() => Volatile.Write(ref _state, 0);

    /// <inheritdoc/>
    internal override void Fire()
    {
        // The queue marked the entry not pending (under its lock) before calling this; read the wait after that.
        Interlocked.MemoryBarrier();
        var state = Volatile.Read(ref _state);
        if (state == 0 || (state & Expired) != 0)
        {
            // No wait is on (a later one finds the entry not pending and schedules it), or this one is decided.
            return;
        }

        var deadline = Volatile.Read(ref _deadline);
        var queue = _queue!;
        if (queue.Now < deadline)
        {
            // Armed by a later wait whose deadline is still ahead: look again then.
            queue.Schedule(this, deadline);
            return;
        }

        if (Interlocked.CompareExchange(ref _state, state | Expired, state) != state)
        {
            // The wait ended meanwhile; a later one schedules the entry itself.
            return;
        }

        // Parked with its mark: take the wake-up. Not parked yet: the parker sees Expired and takes it. A sender took
        // the mark: the thread resumes with the message.
        if (TestHooks.Enabled)
        {
            TestHooks.AfterTimeoutExpired?.Invoke(_receive.Mailbox);
        }

        var thread = _owner!;
        if (_receive.Mailbox.TryInterruptReceive(thread, this, state | Expired))
        {
            thread.Scheduler.Ready(thread);
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"the timer of {_event}";

    private void Bind(GreenThread thread)
    {
        var owner = Interlocked.CompareExchange(ref _owner, thread, null);
        if (owner is not null && owner != thread)
        {
            throw new InvalidOperationException($"{thread} yielded {_event}, which belongs to {owner}; a timed event is bound to the first green thread that yields it, so give each thread its own.");
        }
    }
}
