using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

// The end of a green thread, and what it tells. Every step below takes this object's lock (ThreadEnd and its
// ExitEvent are one object), never while holding another; nothing is called out (a listener, a mailbox, a joiner's
// scheduler) while the lock is held.
//
// Ending (Complete; the ending worker, or the disposing thread, once; GreenThread.Complete has told the mailboxes the
// thread received from first, TellReceived):
//   1. Decide, under the lock: fix the fault, set _decided, claim every listener (IExitListener.TryClaim), drop from
//      the list those a removal took first, and take the list. A fault a claimed listener will observe counts as
//      observed now, so only a fault nothing observes gets its FaultSentinel, made and tracked here. (Before, every
//      supervised crash made a finalizable sentinel and its weak reference only to suppress them a moment later: a
//      restart cost 14.4-18.7 µs; with the claim, 1.6-2.5 µs on most configurations, docs/supervision.md, "Cost of a
//      restart".)
//   2. Tell the listeners, outside the lock, most recently added first: each claimed listener's ThreadEnded.
//   3. Publish (ExitEvent.Publish), under the lock: set _completed, take the joiners, the OS threads' signal and the
//      task; mark the fault observed if telling a listener observed it (a link's message to a thread that traps exits).
//   4. Wake (ExitEvent.Publish), outside the lock: set the signal, finish the task, wake the joiners.
// Why two steps with the listeners between them: IsCompleted and the outcome read _decided, so a listener's message
// never arrives before its thread reads as ended (a supervisor's restart binds the mailbox its crashed child left);
// joiners, waits and tasks see _completed, so whoever sees the end through them finds every claimed listener told
// (telling both at once let a Wait() return with a watch's message still to come: Watch_RemovedWhileItsThreadEnds_...
// failed about one run in two on a loaded machine).
//
// Adding a listener (AddListener; any thread): under the lock, before the decision it joins the head of the list and
// the end will tell it; from the decision on the end has taken the list, so the adder claims it and tells it at once.
//
// Removing a listener (RemoveListener; any thread): the listener is taken first by its own means (a watch's or a
// link's compare-and-swap), so the end's claim fails from then on; then, under the lock, it leaves the list unless
// the decision has taken the list, which the end walks outside the lock: the end drops it there instead.
//
// Observing a fault (MarkObserved, under the lock): a join, a wait that sees the end, a task, reading the exception or
// a faulted outcome, a claimed listener that observes. An observation after the decision suppresses the sentinel.

/// <summary>
/// The end of a green thread, kept on demand: its fault, whether anything observed it, the listeners told of the end
/// first (<see cref="IExitListener"/>), and the mailboxes told that their receiver has ended. The steps are in this
/// file's header.
/// </summary>
/// <remarks>
/// <para>
/// An <see cref="Event"/> only so that its one object is also the thread's join event, <see cref="ExitEvent"/>, which
/// adds what waits for the end (joiners, OS threads, tasks): a joined thread pays one object for both. Most threads
/// are never joined, watched or waited for, and end without one.
/// </para>
/// <para>
/// Any thread; every field below is guarded by locking this object, except <see cref="_received"/>, which is the
/// thread's own worker's.
/// </para>
/// </remarks>
internal abstract class ThreadEnd : Event
{
    /// <summary>The thread whose end this is.</summary>
    private readonly GreenThread _thread;

    /// <summary>
    /// Whether the thread's end is decided: its fault is fixed and the end has taken the listener list, so a removal
    /// leaves the list alone and a new listener is told at once. <see cref="IsCompleted"/> and the outcome read this.
    /// </summary>
    private bool _decided;

    /// <summary>Whether anything has waited for the thread or read its exception; an unobserved fault is reported.</summary>
    private bool _observed;

    /// <summary>The exception that ended the thread, if any; fixed by the decision.</summary>
    private ExceptionDispatchInfo? _fault;

    /// <summary>Reports the fault if nothing ever observes it; created when the thread faults unobserved.</summary>
    private FaultSentinel? _sentinel;

    /// <summary>The most recently added listener; the others follow it through their nodes in this thread's list.</summary>
    private IExitListener? _listeners;

    /// <summary>
    /// The mailboxes the thread receives from, told of its end (see <see cref="IReceiverEndHandler"/>): null, one, or a
    /// <see cref="List{T}"/> of them. Written by the thread's own worker only (or its spawner, before it is placed);
    /// read once, at its end, on that worker.
    /// </summary>
    private object? _received;

    /// <summary>Initializes the end of <paramref name="thread"/>, which may have ended already (<paramref name="ended"/>: successfully).</summary>
    private protected ThreadEnd(GreenThread thread, IReceiverEndHandler? received, bool ended)
    {
        _thread = thread;
        _received = received;
        _decided = ended;
    }

    /// <summary>Gets the thread whose end this is.</summary>
    internal GreenThread Thread => _thread;

    /// <summary>Gets a value indicating whether the thread has ended: its end is decided.</summary>
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

    /// <summary>Gets the fault; stable once the end is decided, which a reader learns under the lock.</summary>
    private protected ExceptionDispatchInfo? Fault => _fault;

    /// <summary>The outcome an end with <paramref name="fault"/> gives.</summary>
    internal static ThreadOutcome OutcomeOf(ExceptionDispatchInfo? fault) =>
        fault is null ? ThreadOutcome.Completed : fault.SourceException is OperationCanceledException ? ThreadOutcome.Canceled : ThreadOutcome.Faulted;

    /// <summary>
    /// Adds a listener, to be told of the end; or, if the end is decided, claims and tells it at once (see the
    /// file's header). Any thread.
    /// </summary>
    /// <returns>True if the listener joined the list; false if the thread had ended (it was told, unless a removal took it first).</returns>
    internal bool AddListener(IExitListener listener)
    {
        lock (this)
        {
            if (!_decided)
            {
                ref var node = ref listener.NodeIn(_thread);
                Debug.Assert(node.Previous is null && node.Next is null && _listeners != listener, "A listener joins a thread's list once.");
                node.Next = _listeners;
                if (_listeners is not null)
                {
                    _listeners.NodeIn(_thread).Previous = listener;
                }

                _listeners = listener;
                return true;
            }
        }

        // Decided: the fault is fixed, and readable without the lock.
        if (listener.TryClaim())
        {
            var observed = listener.ObservesFault;
            observed |= listener.ThreadEnded(_thread, OutcomeOf(_fault), _fault?.SourceException);
            if (observed && _fault is not null)
            {
                Observed();
            }
        }

        return false;
    }

    /// <summary>
    /// Drops a listener its owner has taken (so the end's claim fails), so that it holds no memory until the thread
    /// ends. Any thread; removing what is not in the list does nothing.
    /// </summary>
    internal void RemoveListener(IExitListener listener)
    {
        lock (this)
        {
            if (_decided)
            {
                // The end took the list, and walks it outside the lock.
                return;
            }

            Unlink(listener);
        }
    }

    /// <summary>
    /// Gets the first listener, most recently added first, that <paramref name="match"/> accepts, or null; none once the
    /// end is decided. Any thread; <paramref name="match"/> runs under the lock, so it must take none and call out to nothing.
    /// </summary>
    internal IExitListener? FindListener<TState>(Func<IExitListener, TState, bool> match, TState state)
    {
        lock (this)
        {
            for (var listener = _listeners; listener is not null; listener = listener.NodeIn(_thread).Next)
            {
                if (match(listener, state))
                {
                    return listener;
                }
            }

            return null;
        }
    }

    /// <summary>Remembers one more mailbox the thread receives from. The thread's own worker, or its spawner before it is placed.</summary>
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

    /// <summary>Records the end of the thread, tells its listeners and wakes every joiner: the steps in the file's header.</summary>
    /// <param name="fault">The exception that ended the thread, or null.</param>
    /// <param name="report">Whether the fault must be reported if nothing ever observes it.</param>
    internal void Complete(ExceptionDispatchInfo? fault, bool report)
    {
        IExitListener? listeners;

        // 1. Decide.
        lock (this)
        {
            Debug.Assert(!_decided, "A thread ends once.");
            _decided = true;
            _fault = fault;
            for (var listener = _listeners; listener is not null;)
            {
                var next = listener.NodeIn(_thread).Next;
                if (!listener.TryClaim())
                {
                    // Taken by a removal that has not reached the lock yet: it will find the end decided.
                    Unlink(listener);
                }
                else if (fault is not null && listener.ObservesFault)
                {
                    _observed = true;
                }

                listener = next;
            }

            listeners = _listeners;
            _listeners = null;
            if (fault is not null && report && !_observed)
            {
                _sentinel = new FaultSentinel(_thread, fault.SourceException);
                _thread.Scheduler.TrackUnobserved(_sentinel);
            }
        }

        // 2. Tell the listeners: the list is this end's alone now.
        var observedLate = false;
        if (listeners is not null)
        {
            var outcome = OutcomeOf(fault);
            var exception = fault?.SourceException;
            for (var listener = listeners; listener is not null;)
            {
                ref var node = ref listener.NodeIn(_thread);
                var next = node.Next;
                node = default;
                observedLate |= listener.ThreadEnded(_thread, outcome, exception);
                listener = next;
            }
        }

        // 3 and 4. Publish, and wake whatever waits for the end.
        Publish(observedLate && fault is not null);
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

    /// <summary>
    /// Gets how the thread ended and its exception, without marking a fault observed: for the debugger's display, which
    /// must not change what is reported.
    /// </summary>
    internal (ThreadOutcome Outcome, Exception? Exception) Peek()
    {
        lock (this)
        {
            return _decided ? (OutcomeOf(_fault), _fault?.SourceException) : (ThreadOutcome.Running, null);
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
            return OutcomeOf(_fault);
        }
    }

    /// <summary>
    /// Steps 3 and 4 of the end (see the file's header): publishes it to what waits for it, and wakes them. The end,
    /// outside the lock, once, after the listeners are told.
    /// </summary>
    /// <param name="observed">Whether telling a listener observed the fault, to be marked under the lock.</param>
    private protected abstract void Publish(bool observed);

    /// <summary>Records that something waits for the thread or read its fault. Under the lock.</summary>
    private protected void MarkObserved()
    {
        Debug.Assert(Monitor.IsEntered(this), "The end's state is written under its lock.");
        _observed = true;
        _sentinel?.Suppress();
    }

    /// <summary>Marks the fault observed, from outside the lock.</summary>
    private void Observed()
    {
        lock (this)
        {
            MarkObserved();
        }
    }

    /// <summary>Takes <paramref name="listener"/> out of the list, if it is in it. Under the lock.</summary>
    private void Unlink(IExitListener listener)
    {
        Debug.Assert(Monitor.IsEntered(this), "The listener list is changed under its lock.");
        ref var node = ref listener.NodeIn(_thread);
        if (_listeners == listener)
        {
            _listeners = node.Next;
        }
        else if (node.Previous is null)
        {
            // Not in the list: never added, or dropped already.
            return;
        }
        else
        {
            node.Previous.NodeIn(_thread).Next = node.Next;
        }

        if (node.Next is not null)
        {
            node.Next.NodeIn(_thread).Previous = node.Previous;
        }

        node = default;
    }
}
