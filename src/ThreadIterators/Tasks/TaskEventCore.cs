using System;
using System.Runtime.CompilerServices;

namespace ThreadIterators;

/// <summary>
/// The wait of a task event on its armed task, written once for <see cref="TaskEvent"/> and <see cref="TaskEvent{T}"/>
/// (as System.Threading.Channels' <c>AsyncOperation&lt;TResult&gt;</c> serves both value-task kinds): each event holds
/// one in a field and forwards its members here; <typeparamref name="TSlot"/> is its kind of task and result.
/// </summary>
/// <remarks>
/// <para>
/// A mutable struct held in a field of its event (never copied), so a wait costs no second object; a public event
/// cannot derive from an internal base, so the events share this by composition. The states, the wake-up and the fault
/// are <see cref="TaskWait"/>'s; this adds the task and the steps:
/// </para>
/// <list type="number">
/// <item>Arm (<c>For</c>): a lingering wait whose continuation has run is read first, so a value-task source is
/// released and a fault reported; then the wait refuses if still in use, and takes the task.</item>
/// <item>Park (a plain yield): a lingering wait rejoins the continuation already registered, or reads the task if it
/// fired. An armed one whose task completed successfully is taken and read with plain stores (no compare-and-swap, no
/// try block); otherwise it is claimed with a compare-and-swap, read if completed by now, or else its waiter is set
/// and the continuation registered, after which the thread may run elsewhere. In an explored run that seeds outside
/// work a completed task parks as a pending one does: its completion comes back as a wake-up from outside, taken when
/// the run's strategy picks it, since whether it had completed by now is real time.</item>
/// <item>Resume: the wake-up must be owed (waiting, same thread, task completed); then the outcome is read.</item>
/// <item>In a choice: <c>TryCompleteNow</c> reads a completed task (a seeded run never finds one ready);
/// <c>Enlist</c> claims and registers as Park does, with the choice's ticket as waiter, or gives the claim back if the
/// task completed meanwhile; a losing branch's withdrawal leaves the wait lingering; <c>CompleteChosen</c> reads.</item>
/// <item>A task whose source refuses the registration (read already, or reset) registers nothing: the wait goes back
/// to unarmed and the thread ends with the source's exception.</item>
/// <item>Stop and disposal take the thread back from the continuation (<see cref="TaskWait.TryInterrupt"/>,
/// <see cref="TaskWait.Abandon"/>); an abandoned wait drops its task.</item>
/// </list>
/// </remarks>
/// <typeparam name="TSlot">The armed task and its result: <see cref="ValueTaskSlot"/> or <see cref="ValueTaskSlot{T}"/>.</typeparam>
internal struct TaskEventCore<TSlot>
    where TSlot : struct, ITaskSlot
{
    /// <summary>The armed task, and the result of the last completed wait.</summary>
    private TSlot _slot;

    /// <summary>The state of the wait, the parked thread and the captured fault.</summary>
    private TaskWait _wait;

    /// <summary>The continuation registered on each pending task; created by the first wait that parks, then reused.</summary>
    private Action? _onCompleted;

    /// <summary>Gets the armed task and the result of the last completed wait; read the result after <see cref="Read"/>.</summary>
    internal readonly TSlot Slot => _slot;

    /// <summary>Arms the wait of <paramref name="owner"/> with <paramref name="armed"/>, a slot holding the task and no result (step 1).</summary>
    internal void Arm(Event owner, TSlot armed)
    {
        if (_wait.IsLingering && _wait.HasFired && _wait.Owner is { } thread)
        {
            // Its task completed after a choice chose another branch, and nothing read the outcome: read it now, so a
            // value-task source is released and a fault is reported, not lost.
            _wait.ResumeLingering();
            Capture(thread);
        }

        _wait.BeginArm(owner);
        _slot = armed;
        _wait.EndArm();
    }

    /// <summary>Checks that the outcome may be read, and rethrows the task's exception if it faulted (see <see cref="TaskWait.Read"/>).</summary>
    internal void Read(Event owner, string reading) => _wait.Read(owner, reading);

    /// <summary>Describes the state of the wait for <c>ToString</c>.</summary>
    internal string Describe() => _wait.Describe();

    /// <summary>
    /// The event's wait for the graph (<paramref name="awaited"/>: what it waits for) or, as <paramref name="name"/>
    /// alone, for a trace: never whether the task has completed there, since that changes on another OS thread.
    /// </summary>
    internal void DescribeWait(WaitDescription into, string name, string awaited)
    {
        if (into.ForTrace)
        {
            into.Trace(name);
            return;
        }

        into.Say($"{awaited} to complete, outside the scheduler ({Describe()})").Outside = true;
    }

    /// <summary>
    /// Step 2, inlined into the event's <c>Park</c> so the common fast case (a cached or synchronously completed
    /// task) costs no call more than it did.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal EventOutcome Park(Event owner, GreenThread thread)
    {
        if (_wait.IsLingering)
        {
            // Left waiting on its task by a choice: wait for the same task, through the continuation already registered.
            return TryCompleteLingering(owner, thread) || !_wait.Rejoin(thread, owner, thread) ? CaptureLingering(thread) : EventOutcome.Parked;
        }

        _wait.CheckArmed(thread, owner);
        var seeded = thread.Scheduler.SeedsOutsideWork;
        if (_slot.IsCompletedSuccessfully && !seeded)
        {
            _wait.TakeCompleted(thread);
            CaptureSuccess();
            return EventOutcome.Continue;
        }

        return ParkPending(owner, thread, seeded);
    }

    /// <summary>Step 3.</summary>
    internal EventOutcome Resume(Event owner, GreenThread thread)
    {
        _wait.CheckResume(thread, owner, _slot.IsCompleted);
        Capture(thread);
        return EventOutcome.Continue;
    }

    /// <summary>Step 4: a choice's first look.</summary>
    internal EventOutcome TryCompleteNow(Event owner, GreenThread thread)
    {
        if (_wait.IsLingering)
        {
            return TryCompleteLingering(owner, thread) ? CaptureLingering(thread) : EventOutcome.Parked;
        }

        _wait.CheckArmed(thread, owner);
        if (!_slot.IsCompleted || thread.Scheduler.SeedsOutsideWork)
        {
            // Seeded: the branch is not ready yet; enlisting registers it, and its completion comes back from outside.
            return EventOutcome.Parked;
        }

        _wait.TakeCompleted(thread);
        Capture(thread);
        return EventOutcome.Continue;
    }

    /// <summary>Step 4: registers a choice's branch on the task; false if the task completed meanwhile, so nothing is registered.</summary>
    internal bool Enlist(Event owner, GreenThread thread, ChoiceBranch branch, long generation)
    {
        var ticket = new ChoiceTicket(branch, generation);
        if (_wait.IsLingering)
        {
            return _wait.Rejoin(thread, owner, ticket);
        }

        _wait.BeginEnlist(thread, owner);
        try
        {
            if (_slot.IsCompleted && !thread.Scheduler.SeedsOutsideWork)
            {
                _wait.UndoPark();
                return false;
            }

            _wait.SetWaiter(ticket);

            // From here the branch may be fired, and the thread run on another worker once the choice has parked.
            _slot.UnsafeOnCompleted(_onCompleted ??= TSlot.ContinuationOf(owner));
            return true;
        }
        catch
        {
            // Step 5.
            _slot.Clear();
            _wait.AbortPark();
            throw;
        }
    }

    /// <summary>Step 4: a losing branch leaves the wait lingering on its task; the chosen one has nothing to undo.</summary>
    internal void Withdraw(bool chosen)
    {
        if (!chosen)
        {
            _wait.WithdrawLost();
        }
    }

    /// <summary>Step 4: reads the outcome of the chosen branch.</summary>
    internal EventOutcome CompleteChosen(Event owner, GreenThread thread)
    {
        if (!_wait.IsWaiting)
        {
            // Chosen because it was found completed while the choice registered its branches: nothing was registered.
            return TryCompleteNow(owner, thread);
        }

        _wait.CheckResume(thread, owner, _slot.IsCompleted);
        Capture(thread);
        return EventOutcome.Continue;
    }

    /// <summary>Step 6: for a stop, takes the parked <paramref name="thread"/> back from the continuation.</summary>
    internal bool TryInterrupt(GreenThread thread) => _wait.TryInterrupt(thread);

    /// <summary>Step 6: finishes a wait a stop took back; it lingers.</summary>
    internal void CompleteInterrupt() => _wait.CompleteInterrupt();

    /// <summary>Step 6: forgets <paramref name="thread"/>, parked when its scheduler was disposed.</summary>
    internal void Abandon(GreenThread thread)
    {
        if (_wait.Abandon(thread))
        {
            _slot.Clear();
        }
    }

    /// <summary>The task's continuation, run by the event's <c>OnCompleted</c>: wakes the parked thread or fires the choice's branch.</summary>
    internal void Wake() => _wait.Wake();

    /// <summary>Step 2 for a task not found completed successfully, or any task in a seeded run: claims the wait, then reads or registers.</summary>
    private EventOutcome ParkPending(Event owner, GreenThread thread, bool seeded)
    {
        _wait.BeginPark(thread, owner);
        try
        {
            if (_slot.IsCompleted && !seeded)
            {
                Capture(thread);
                return EventOutcome.Continue;
            }

            _wait.SetWaiter(thread);

            // From here the thread may be made ready, and run on another worker, before this returns.
            _slot.UnsafeOnCompleted(_onCompleted ??= TSlot.ContinuationOf(owner));
            return EventOutcome.Parked;
        }
        catch
        {
            // Step 5: the thread ends with the source's exception; the event may be armed again.
            _slot.Clear();
            _wait.AbortPark();
            throw;
        }
    }

    /// <summary>Whether a lingering wait's continuation has run, so its task's outcome can be read now.</summary>
    private bool TryCompleteLingering(Event owner, GreenThread thread)
    {
        if (_wait.Owner != thread)
        {
            _wait.Rejoin(thread, owner, thread);
        }

        return _wait.HasFired;
    }

    /// <summary>Reads the outcome of a lingering wait whose task has completed.</summary>
    private EventOutcome CaptureLingering(GreenThread thread)
    {
        _wait.ResumeLingering();
        Capture(thread);
        return EventOutcome.Continue;
    }

    /// <summary>Reads the completed task's outcome, once, and records it.</summary>
    private void Capture(GreenThread thread)
    {
        Exception? fault = null;
        try
        {
            _slot.GetResult();
        }
        catch (Exception exception)
        {
            fault = exception;
        }

        _slot.Clear();
        _wait.Complete(thread, fault);
    }

    /// <summary>Ends a wait on a task that completed successfully: for a value-task source, its one read.</summary>
    private void CaptureSuccess()
    {
        _slot.GetResult();
        _slot.Clear();
        _wait.CompleteSuccessfully();
    }
}
