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
/// <see cref="_state"/> says which wait is on: its generation (shifted left by one), with <see cref="Expired"/> set
/// once its deadline has passed; 0 while none is. The worker running the thread publishes a wait (a write before the
/// park's swap) and clears it on resume; the firing thread sets <see cref="Expired"/> with a compare-and-swap, so
/// only for the wait it looked at. Then the receiver's park mark decides, as between a sender and a stop: the timer
/// takes it if it is set; if it is not set yet (the receiver is between publishing and parking), the parker finds
/// <see cref="Expired"/> right after its park (the two swaps are a Dekker pair) and takes its own mark back. A mark
/// taken counts as this wait's only if the wait is still the expired one afterwards; one of a later wait is put back.
/// A message that arrives by the time the thread resumes wins over the deadline, as it would in a choice's look.
/// </para>
/// <para>
/// The entry is lazy, as a choice's time branch is (see <see cref="TimeBranchTimer"/>): a wait that ends in time
/// leaves it pending, and the next wait only moves the deadline it is checked against. Deadlines only grow (one
/// duration, a clock that only moves forward), so a pending entry fires no later than the current wait's deadline.
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

        return _receive.Mailbox.TakeOrParkTimed(thread, _receive, this);
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
