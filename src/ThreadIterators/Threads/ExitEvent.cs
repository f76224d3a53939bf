using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

// Waiting for a thread's end, under the lock its base ThreadEnd takes (the end's steps are in ThreadEnd.cs's header;
// this file holds its steps 3 and 4, Publish). Everything here waits for _completed, set once the listeners are told.
//   Join (Park, Enlist; the joining thread's worker, as it yields Exited or Ended): refuse a join of itself or across
//   schedulers; under the lock, mark the fault observed (a join observes it, whether or not it parks), then add the
//   joiner unless the end is published, in which case it does not park and resumes at once. Exited rethrows the
//   fault as it resumes; Ended does not.
//   Leave (a stop, a choice's losing branch, the scheduler's disposal): under the lock, remove the joiner if it is
//   still there; if it is not, the end took it and its wake-up stands.
//   Wait (an OS thread): under the lock, return if published, or make the signal; then block on it outside the lock.
//   Only a wait that sees the end observes the fault: one that times out first has seen nothing.
//   AsTask (any thread): under the lock, observe the fault and make the task, finished at once if published.
//   Publish (the end): under the lock, set _completed and take the joiners, the signal and the task; outside it, set
//   the signal, finish the task and wake each joiner once: a thread is made ready, a choice's ticket fires.

/// <summary>
/// The join event of a green thread (<see cref="GreenThread.Exited"/>), and everything else that waits for its end:
/// joiners (green threads parked on it or on its <see cref="Ended"/> event, and the tickets of choices waiting on
/// either), OS threads blocked in <see cref="Wait"/>, and the task of <see cref="AsTask"/>. Its base,
/// <see cref="ThreadEnd"/>, keeps the rest of the end, in the same object and under the same lock. Created on demand,
/// since most threads are never joined.
/// </summary>
/// <remarks>Any thread; every field below is guarded by locking this object.</remarks>
internal sealed class ExitEvent : ThreadEnd, IChoosable
{
    /// <summary>
    /// Joiners: null, one joiner, or a <see cref="List{T}"/> of them; a joiner is a <see cref="GreenThread"/> parked on
    /// this event or <see cref="Ended"/>, or the <see cref="ChoiceTicket"/> of a choice waiting on either. (What else
    /// the end tells is in the listener list of <see cref="ThreadEnd"/>.)
    /// </summary>
    private object? _joiners;

    /// <summary>
    /// Whether the end is published (step 3 of the end): set after the listeners are told, so a joiner, a wait or a
    /// task that sees the end finds every listener whose removal failed already told.
    /// </summary>
    private bool _completed;

    /// <summary>Signalled at publication for OS threads in <see cref="Wait"/>; created by the first of them.</summary>
    private ManualResetEventSlim? _signal;

    /// <summary>Completed at publication for <see cref="AsTask"/>; created by its first call.</summary>
    private TaskCompletionSource? _task;

    /// <summary>The join that does not rethrow; made by the first to ask for it.</summary>
    private EndedEvent? _ended;

    /// <summary>Initializes the join event of a running thread, taking over the one mailbox it receives from, if any.</summary>
    internal ExitEvent(GreenThread thread, IReceiverEndHandler? received = null)
        : this(thread, received, ended: false)
    {
    }

    /// <summary>Initializes the join event of a thread, published already if it has <paramref name="ended"/> (successfully).</summary>
    private ExitEvent(GreenThread thread, IReceiverEndHandler? received, bool ended)
        : base(thread, received, ended)
    {
        _completed = ended;
    }

    /// <summary>Gets the join that resumes the joiner however the thread ended (<see cref="GreenThread.Ended"/>); the same object every time.</summary>
    internal EndedEvent Ended
    {
        get
        {
            var ended = Volatile.Read(ref _ended);
            if (ended is null)
            {
                var created = new EndedEvent(this);
                ended = Interlocked.CompareExchange(ref _ended, created, null) ?? created;
            }

            return ended;
        }
    }

    /// <summary>Gets a value indicating whether anything waits for the thread to end. Read by tests only, off every hot path.</summary>
    internal bool HasWaiters
    {
        get
        {
            lock (this)
            {
                return _joiners is not null || _signal is not null || _task is not null;
            }
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"{Thread}.Exited";

    /// <summary>Makes the join event of a thread that ended successfully before anything asked for it.</summary>
    internal static ExitEvent CreateCompleted(GreenThread thread) => new(thread, received: null, ended: true);

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"the end of {Thread} (joined)").WaitsOn(Thread);
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        TryAddJoiner(thread, this) ? JoinCycles.ParkedUnlessCycle(thread, this) : Resume(thread, worker);

    /// <summary>Whether <paramref name="thread"/> is parked here, joining (not in a choice). Any thread.</summary>
    internal bool HasJoiner(GreenThread thread)
    {
        lock (this)
        {
            return _joiners == thread || (_joiners is List<object> many && many.Contains(thread));
        }
    }

    /// <summary>
    /// Parks <paramref name="thread"/> until the thread ends, or returns false if it has ended already; either way the
    /// join counts as observing a fault. On the joining thread's worker, as it yields <paramref name="joinedBy"/>
    /// (this event or <see cref="Ended"/>), which the misuse messages name.
    /// </summary>
    internal bool TryAddJoiner(GreenThread thread, Event joinedBy) => TryAddJoiner(thread, joinedBy, thread);

    /// <summary>
    /// As <see cref="TryAddJoiner(GreenThread, Event)"/>, with <paramref name="joiner"/> (the thread, or a choice's
    /// ticket) woken at the end.
    /// </summary>
    internal bool TryAddJoiner(GreenThread thread, Event joinedBy, object joiner)
    {
        CheckJoiner(thread, joinedBy);
        lock (this)
        {
            MarkObserved();
            if (_completed)
            {
                return false;
            }

            AddJoiner(joiner);
            return true;
        }
    }

    /// <summary>
    /// Forgets a joiner: a thread whose scheduler is being disposed (the disposing thread, once the workers have
    /// stopped), so the end of the thread it joined, disposed after it, does not make an ended thread ready; a thread
    /// being stopped (any thread); or the ticket of <paramref name="branch"/>, a choice's branch that lost. Removing
    /// what is not there does nothing. True if it removed something.
    /// </summary>
    internal bool RemoveJoiner(GreenThread thread, ChoiceBranch? branch = null)
    {
        lock (this)
        {
            if (IsJoiner(_joiners, thread, branch))
            {
                _joiners = null;
                return true;
            }

            return _joiners is List<object> many && many.RemoveAll(joiner => IsJoiner(joiner, thread, branch)) != 0;
        }

        static bool IsJoiner(object? joiner, GreenThread thread, ChoiceBranch? branch) =>
            branch is null ? joiner == thread : joiner is ChoiceTicket ticket && ticket.Branch == branch;
    }

    /// <summary>For a choice looking at a join: whether the thread has ended, observing its fault as a join does.</summary>
    internal bool HasEndedForJoiner(GreenThread thread, Event joinedBy)
    {
        CheckJoiner(thread, joinedBy);
        lock (this)
        {
            MarkObserved();
            return _completed;
        }
    }

    internal override void Abandon(GreenThread thread) => RemoveJoiner(thread);

    // Parked on this join if, and only if, it is among the joiners: the end takes them all under the lock.
    internal override bool TryInterrupt(GreenThread thread) => RemoveJoiner(thread);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => HasEnded(thread);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) =>
        TryAddJoiner(thread, this, new ChoiceTicket(branch, generation));

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => RemoveJoiner(thread, branch);

    // An end, once fired, stays: the look completes it.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => HasEnded(thread);

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        // Told: the fault was fixed before the end was published under the lock that Park took.
        if (Fault is not { } fault)
        {
            return EventOutcome.Continue;
        }

        thread.PendingFault = fault;
        return EventOutcome.Faulted;
    }

    /// <summary>
    /// Blocks the calling OS thread until the end is published, and rethrows the fault; false if
    /// <paramref name="timeout"/> passed first. Any OS thread but the thread's scheduler's workers (the caller checks).
    /// </summary>
    internal bool Wait(TimeSpan timeout)
    {
        ManualResetEventSlim signal;
        lock (this)
        {
            if (!_completed)
            {
                signal = _signal ??= new ManualResetEventSlim(false, 0);
            }
            else
            {
                MarkObserved();
                Fault?.Throw();
                return true;
            }
        }

        // Observed only by a wait that sees the end: one that times out first has seen nothing, and a fault that
        // comes after it must still be reported.
        if (!signal.Wait(timeout))
        {
            return false;
        }

        lock (this)
        {
            MarkObserved();
        }

        Fault?.Throw();
        return true;
    }

    /// <summary>Gets the task that completes when the end is published, as the fault says; the same task every time. Any thread.</summary>
    internal Task AsTask()
    {
        lock (this)
        {
            MarkObserved();
            if (_task is null)
            {
                _task = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                if (_completed)
                {
                    Finish(_task);
                }
            }

            return _task.Task;
        }
    }

    /// <inheritdoc/>
    private protected override void Publish(bool observed)
    {
        object? joiners;
        ManualResetEventSlim? signal;
        TaskCompletionSource? task;
        lock (this)
        {
            _completed = true;
            joiners = _joiners;
            _joiners = null;
            signal = _signal;
            task = _task;
            if (observed)
            {
                MarkObserved();
            }
        }

        signal?.Set();
        if (task is not null)
        {
            Finish(task);
        }

        if (joiners is List<object> many)
        {
            foreach (var joiner in many)
            {
                Wake(joiner);
            }
        }
        else if (joiners is not null)
        {
            Wake(joiners);
        }

        static void Wake(object joiner)
        {
            if (joiner is GreenThread thread)
            {
                thread.Scheduler.Ready(thread);
            }
            else
            {
                ((ChoiceTicket)joiner).Fire();
            }
        }
    }

    /// <summary>Completes the join if the thread has ended (observing its fault, and rethrowing it, as a join does), else Parked.</summary>
    private EventOutcome HasEnded(GreenThread thread) =>
        HasEndedForJoiner(thread, this) ? Resume(thread, null!) : EventOutcome.Parked;

    /// <summary>Adds a joiner. Under the lock.</summary>
    private void AddJoiner(object joiner)
    {
        Debug.Assert(Monitor.IsEntered(this), "The joiners are changed under the lock.");
        switch (_joiners)
        {
            case null:
                _joiners = joiner;
                break;
            case List<object> many:
                many.Add(joiner);
                break;
            default:
                _joiners = new List<object> { _joiners, joiner };
                break;
        }
    }

    /// <summary>Refuses a join of the thread itself, or from a thread of another scheduler.</summary>
    private void CheckJoiner(GreenThread thread, Event joinedBy)
    {
        if (thread == Thread)
        {
            throw new InvalidOperationException($"{thread} yielded its own {joinedBy} event; a thread cannot join itself.");
        }

        if (thread.Scheduler != Thread.Scheduler)
        {
            throw new InvalidOperationException($"{thread} of {thread.Scheduler} yielded {joinedBy}, but {Thread} belongs to {Thread.Scheduler}, another scheduler; join a thread of another scheduler with Wait() or await from plain code.");
        }
    }

    /// <summary>Completes <paramref name="task"/> as the fault says. Once the end is published: the fault is fixed.</summary>
    private void Finish(TaskCompletionSource task)
    {
        if (Fault is not { } fault)
        {
            task.TrySetResult();
        }
        else if (fault.SourceException is OperationCanceledException canceled)
        {
            task.TrySetCanceled(canceled.CancellationToken);
        }
        else
        {
            task.TrySetException(fault.SourceException);
        }
    }
}
