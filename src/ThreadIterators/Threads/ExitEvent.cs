using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// Completes when its green thread ends; joiners are green threads parked on it or on its <see cref="Ended"/> event,
/// OS threads blocked in <see cref="Wait"/>, and tasks from <see cref="AsTask"/>. Created on demand, since most
/// threads are never joined.
/// </summary>
/// <remarks>Any thread; every field below is guarded by locking this object.</remarks>
internal sealed class ExitEvent : Event
{
    /// <summary>The thread whose end this event reports.</summary>
    private readonly GreenThread _thread;

    /// <summary>Whether the thread has ended.</summary>
    private bool _completed;

    /// <summary>Whether anything has waited for the thread or read its exception; an unobserved fault is reported.</summary>
    private bool _observed;

    /// <summary>The exception that ended the thread, if any.</summary>
    private ExceptionDispatchInfo? _fault;

    /// <summary>
    /// Joiners: null, one joiner, or a <see cref="List{T}"/> of them; a joiner is a <see cref="GreenThread"/> parked on
    /// this event or <see cref="Ended"/>, or the <see cref="ChoiceTicket"/> of a choice waiting on either.
    /// </summary>
    private object? _joiners;

    /// <summary>Signalled at completion for OS threads in <see cref="Wait"/>; created by the first of them.</summary>
    private ManualResetEventSlim? _signal;

    /// <summary>Completed at completion for <see cref="AsTask"/>; created by its first call.</summary>
    private TaskCompletionSource? _task;

    /// <summary>Reports the fault if nothing ever observes it; created when the thread faults unobserved.</summary>
    private FaultSentinel? _sentinel;

    /// <summary>The join that does not rethrow; made by the first to ask for it.</summary>
    private EndedEvent? _ended;

    internal ExitEvent(GreenThread thread) => _thread = thread;

    /// <summary>Gets the thread whose end this event reports.</summary>
    internal GreenThread Thread => _thread;

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

    /// <summary>Gets a value indicating whether the thread has ended.</summary>
    internal bool IsCompleted
    {
        get
        {
            lock (this)
            {
                return _completed;
            }
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
    public override string ToString() => $"{_thread}.Exited";

    internal static ExitEvent CreateCompleted(GreenThread thread) => new(thread) { _completed = true };

    /// <summary>Records the end of the thread and wakes every joiner.</summary>
    /// <param name="fault">The exception that ended the thread, or null.</param>
    /// <param name="report">Whether the fault must be reported if nothing ever observes it.</param>
    internal void Complete(ExceptionDispatchInfo? fault, bool report)
    {
        object? joiners;
        ManualResetEventSlim? signal;
        TaskCompletionSource? task;
        lock (this)
        {
            Debug.Assert(!_completed, "A thread ends once.");
            _completed = true;
            _fault = fault;
            joiners = _joiners;
            _joiners = null;
            signal = _signal;
            task = _task;
            if (fault is not null && report && !_observed)
            {
                _sentinel = new FaultSentinel(_thread, fault.SourceException);
                _thread.Scheduler.TrackUnobserved(_sentinel);
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

    /// <summary>Gets the exception that ended the thread, marking it observed.</summary>
    internal Exception? GetException()
    {
        lock (this)
        {
            MarkObserved();
            return _fault?.SourceException;
        }
    }

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
                _fault?.Throw();
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

        _fault?.Throw();
        return true;
    }

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

    /// <summary>Gets how the thread ended, or <see cref="ThreadOutcome.Running"/>; reading a fault's outcome marks it observed.</summary>
    internal ThreadOutcome GetOutcome()
    {
        lock (this)
        {
            if (!_completed)
            {
                return ThreadOutcome.Running;
            }

            if (_fault is null)
            {
                return ThreadOutcome.Completed;
            }

            MarkObserved();
            return _fault.SourceException is OperationCanceledException ? ThreadOutcome.Canceled : ThreadOutcome.Faulted;
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        TryAddJoiner(thread, this) ? EventOutcome.Parked : Resume(thread, worker);

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

            return true;
        }
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

    /// <inheritdoc/>
    internal override string? NotChoosableBecause => null;

    internal override EventOutcome TryCompleteNow(GreenThread thread) =>
        HasEndedForJoiner(thread, this) ? Resume(thread, null!) : EventOutcome.Parked;

    internal override bool Enlist(GreenThread thread, ChoiceBranch branch, long generation) =>
        TryAddJoiner(thread, this, new ChoiceTicket(branch, generation));

    internal override void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => RemoveJoiner(thread, branch);

    private void CheckJoiner(GreenThread thread, Event joinedBy)
    {
        if (thread == _thread)
        {
            throw new InvalidOperationException($"{thread} yielded its own {joinedBy} event; a thread cannot join itself.");
        }

        if (thread.Scheduler != _thread.Scheduler)
        {
            throw new InvalidOperationException($"{thread} of {thread.Scheduler} yielded {joinedBy}, but {_thread} belongs to {_thread.Scheduler}, another scheduler; join a thread of another scheduler with Wait() or await from plain code.");
        }
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        // Completed: _fault is written before the completion is published under the lock that Park took.
        if (_fault is null)
        {
            return EventOutcome.Continue;
        }

        thread.PendingFault = _fault;
        return EventOutcome.Faulted;
    }

    /// <summary>Records that something waits for the thread or read its fault. Call under the lock.</summary>
    private void MarkObserved()
    {
        _observed = true;
        _sentinel?.Suppress();
    }

    private void Finish(TaskCompletionSource task)
    {
        if (_fault is null)
        {
            task.TrySetResult();
        }
        else if (_fault.SourceException is OperationCanceledException canceled)
        {
            task.TrySetCanceled(canceled.CancellationToken);
        }
        else
        {
            task.TrySetException(_fault.SourceException);
        }
    }
}
