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

    /// <summary>
    /// Whether the thread's end is decided: its fault is fixed and the end has taken the watch list, so a removal
    /// fails and a new watch fires at once. <see cref="IsCompleted"/> and the outcome read this, so a watch's message
    /// never arrives before its thread reads as ended (a supervisor's restart binds the mailbox its crashed child left).
    /// </summary>
    private bool _decided;

    /// <summary>
    /// Whether the end has been told: set after the watches' messages are sent, so a joiner, a wait or a task that
    /// sees the end finds the message of every watch whose removal failed already sent.
    /// </summary>
    private bool _completed;

    /// <summary>Whether anything has waited for the thread or read its exception; an unobserved fault is reported.</summary>
    private bool _observed;

    /// <summary>The exception that ended the thread, if any.</summary>
    private ExceptionDispatchInfo? _fault;

    /// <summary>
    /// Joiners: null, one joiner, or a <see cref="List{T}"/> of them; a joiner is a <see cref="GreenThread"/> parked on
    /// this event or <see cref="Ended"/>, the <see cref="ChoiceTicket"/> of a choice waiting on either, or a
    /// <see cref="ThreadLink"/>. (Watches have a list of their own, <see cref="_watches"/>.)
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

    /// <summary>The most recent watch; the others follow it through <see cref="ThreadWatch.Next"/>.</summary>
    private ThreadWatch? _watches;

    /// <summary>Where linked threads' exits go instead of stopping the thread (<see cref="GreenThread.TrapExits"/>), or null.</summary>
    private IMessageTarget<ThreadExit>? _trapExits;

    /// <summary>
    /// The mailboxes the thread receives from, told of its end (see <see cref="IReceiverEndHandler"/>): null, one, or a
    /// <see cref="List{T}"/> of them. Written by the thread's own worker only; read once, at its end, on that worker.
    /// </summary>
    private object? _received;

    internal ExitEvent(GreenThread thread, IReceiverEndHandler? received = null)
    {
        _thread = thread;
        _received = received;
    }

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
                return _decided;
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

    internal override void DescribeWait(WaitDescription into) => into.Say($"the end of {_thread} (joined)").WaitsOn(_thread);

    internal static ExitEvent CreateCompleted(GreenThread thread) => new(thread) { _completed = true, _decided = true };

    /// <summary>Gets or sets where linked threads' exits go instead of stopping the thread; see <see cref="GreenThread.TrapExits"/>.</summary>
    internal IMessageTarget<ThreadExit>? TrapExits
    {
        get => Volatile.Read(ref _trapExits);
        set => Volatile.Write(ref _trapExits, value);
    }

    /// <summary>Adds a watch, or fires it at once if the thread has ended. Any thread.</summary>
    internal void AddWatch(ThreadWatch watch)
    {
        lock (this)
        {
            if (!_decided)
            {
                watch.Next = _watches;
                if (_watches is not null)
                {
                    _watches.Previous = watch;
                }

                _watches = watch;
                return;
            }
        }

        if (watch.TryFire(OutcomeOf(_fault), _fault?.SourceException))
        {
            Observed();
        }
    }

    /// <summary>Forgets a removed watch, so that it holds no memory until the thread ends. Any thread.</summary>
    internal void RemoveWatch(ThreadWatch watch)
    {
        lock (this)
        {
            if (_decided)
            {
                // The end took the list, and walks it outside the lock.
                return;
            }

            if (_watches == watch)
            {
                _watches = watch.Next;
            }
            else if (watch.Previous is null)
            {
                // Not in the list: the end took it.
                return;
            }
            else
            {
                watch.Previous.Next = watch.Next;
            }

            if (watch.Next is not null)
            {
                watch.Next.Previous = watch.Previous;
            }

            watch.Previous = watch.Next = null;
        }
    }

    /// <summary>Adds a link unless the thread has ended; false if it has. Any thread.</summary>
    internal bool TryAddLink(ThreadLink link)
    {
        lock (this)
        {
            if (_completed)
            {
                return false;
            }

            AddJoiner(link);
            return true;
        }
    }

    /// <summary>Gets this thread's link with <paramref name="other"/>, if any. Any thread.</summary>
    internal ThreadLink? FindLink(GreenThread other)
    {
        lock (this)
        {
            if (_joiners is ThreadLink one)
            {
                return one.Other(_thread) == other ? one : null;
            }

            if (_joiners is List<object> many)
            {
                foreach (var joiner in many)
                {
                    if (joiner is ThreadLink link && link.Other(_thread) == other)
                    {
                        return link;
                    }
                }
            }

            return null;
        }
    }

    /// <summary>Forgets a link the other thread's end fired, or an unlink cut. Any thread.</summary>
    internal void RemoveLink(ThreadLink link) => RemoveJoiner(link);

    /// <summary>Acts on a link of this thread, which has ended, towards the other thread: once, unless it was cut. Any thread.</summary>
    internal void FireLink(ThreadLink link)
    {
        if (!link.TryTake())
        {
            return;
        }

        var other = link.Other(_thread);
        (Volatile.Read(ref other.ExitField) as ExitEvent)?.RemoveLink(link);
        if (other.HearLinkedExit(new ThreadExit(_thread, OutcomeOf(_fault), _fault?.SourceException, null)))
        {
            Observed();
        }
    }

    /// <summary>Remembers one more mailbox the thread receives from. The thread's own worker.</summary>
    internal void AddReceived(IReceiverEndHandler mailbox)
    {
        switch (_received)
        {
            case null:
                _received = mailbox;
                break;
            case List<IReceiverEndHandler> many:
                many.Add(mailbox);
                break;
            default:
                _received = new List<IReceiverEndHandler> { (IReceiverEndHandler)_received, mailbox };
                break;
        }
    }

    /// <summary>Tells every mailbox the thread received from that it has ended. The ending worker, before <see cref="Complete"/>.</summary>
    internal void TellReceived()
    {
        var received = _received;
        _received = null;
        if (received is List<IReceiverEndHandler> many)
        {
            foreach (var mailbox in many)
            {
                mailbox.ReceiverEnded(_thread);
            }
        }
        else
        {
            (received as IReceiverEndHandler)?.ReceiverEnded(_thread);
        }
    }

    /// <summary>Records the end of the thread and wakes every joiner.</summary>
    /// <param name="fault">The exception that ended the thread, or null.</param>
    /// <param name="report">Whether the fault must be reported if nothing ever observes it.</param>
    internal void Complete(ExceptionDispatchInfo? fault, bool report)
    {
        object? joiners;
        ThreadWatch? watches;
        ManualResetEventSlim? signal;
        TaskCompletionSource? task;
        lock (this)
        {
            Debug.Assert(!_decided, "A thread ends once.");
            _decided = true;
            _fault = fault;
            watches = _watches;
            _watches = null;

            // Watches are claimed here, under the lock, so that one whose message will observe the fault does so
            // before the fault is tracked as unobserved: a supervised crash then costs no finalizable sentinel.
            for (var watch = watches; watch is not null; watch = watch.Next)
            {
                if (watch.TryClaim() && fault is not null && watch.Observes)
                {
                    _observed = true;
                }
            }

            if (fault is not null && report && !_observed)
            {
                _sentinel = new FaultSentinel(_thread, fault.SourceException);
                _thread.Scheduler.TrackUnobserved(_sentinel);
            }
        }

        // The watches' messages first: once anyone sees the end (a joiner, a wait, a task, IsCompleted), a watch whose
        // removal failed has sent its message. So the end is published only after them.
        for (var watch = watches; watch is not null;)
        {
            var next = watch.Next;
            watch.Previous = watch.Next = null;
            if (watch.HasFired)
            {
                // Claimed above: only the end fires a watch in this list, and a removal cannot undo the claim.
                watch.Send(OutcomeOf(fault), fault?.SourceException);
            }

            watch = next;
        }

        lock (this)
        {
            _completed = true;
            joiners = _joiners;
            _joiners = null;
            signal = _signal;
            task = _task;
        }

        signal?.Set();
        if (task is not null)
        {
            Finish(task);
        }

        var told = false;
        if (joiners is List<object> many)
        {
            foreach (var joiner in many)
            {
                told |= Wake(joiner);
            }
        }
        else if (joiners is not null)
        {
            told = Wake(joiners);
        }

        if (told && fault is not null)
        {
            // A trapping linked thread got the fault as a message: it is observed.
            Observed();
        }

        bool Wake(object joiner)
        {
            switch (joiner)
            {
                case GreenThread thread:
                    thread.Scheduler.Ready(thread);
                    return false;
                case ChoiceTicket ticket:
                    ticket.Fire();
                    return false;
                default:
                    FireLink((ThreadLink)joiner);
                    return false;
            }
        }
    }

    /// <summary>The outcome an end with <paramref name="fault"/> gives.</summary>
    internal static ThreadOutcome OutcomeOf(ExceptionDispatchInfo? fault) =>
        fault is null ? ThreadOutcome.Completed : fault.SourceException is OperationCanceledException ? ThreadOutcome.Canceled : ThreadOutcome.Faulted;

    /// <summary>Marks the fault observed, outside the lock.</summary>
    private void Observed()
    {
        lock (this)
        {
            MarkObserved();
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

    /// <summary>
    /// Gets how the thread ended and its exception, without marking a fault observed: for the debugger's display, which
    /// must not change what is reported.
    /// </summary>
    internal (ThreadOutcome Outcome, Exception? Exception) Peek()
    {
        lock (this)
        {
            if (!_decided)
            {
                return (ThreadOutcome.Running, null);
            }

            var exception = _fault?.SourceException;
            return (exception switch { null => ThreadOutcome.Completed, OperationCanceledException => ThreadOutcome.Canceled, _ => ThreadOutcome.Faulted }, exception);
        }
    }

    /// <summary>Gets how the thread ended, or <see cref="ThreadOutcome.Running"/>; reading a fault's outcome marks it observed.</summary>
    internal ThreadOutcome GetOutcome()
    {
        lock (this)
        {
            if (!_decided)
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

            AddJoiner(joiner);
            return true;
        }
    }

    /// <summary>Adds anything the end tells to the joiners. Under the lock.</summary>
    private void AddJoiner(object joiner)
    {
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

    /// <summary>Forgets a watch or a link. Any thread; removing what is not there does nothing.</summary>
    internal void RemoveJoiner(object joiner)
    {
        lock (this)
        {
            if (_joiners == joiner)
            {
                _joiners = null;
            }
            else if (_joiners is List<object> many)
            {
                many.Remove(joiner);
            }
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
