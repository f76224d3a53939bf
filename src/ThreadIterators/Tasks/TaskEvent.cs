using System;
using System.Diagnostics;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to wait for a <see cref="Task"/> or <see cref="ValueTask"/> without blocking its
/// worker: the thread parks until the task has completed, and resumes on a worker of its own scheduler, never on the
/// OS thread that completed the task. After the thread resumes, <see cref="GetResult"/> returns, or throws the
/// task's exception as <c>await</c> would.
/// </summary>
/// <remarks>
/// <para>
/// Reusable: arm it with <see cref="For(Task)"/> or <see cref="For(ValueTask)"/> before each yield. A task already
/// completed when the event is yielded does not park the thread, and the wait allocates nothing; a pending one
/// allocates nothing beyond what the task itself does. For a one-off wait, <see cref="TaskEventExtensions.AsEvent(Task)"/>
/// makes a new event per call.
/// </para>
/// <para>
/// The task's exception is thrown when the body reads the outcome, not at the <c>yield return</c>: C# forbids a
/// <c>yield return</c> inside a <c>try</c> block that has a <c>catch</c>, so this is the only place a body can catch
/// it. A fault that is never read (the event armed again, dropped, or its thread ended without calling
/// <see cref="GetResult"/>) is reported through <see cref="Scheduler.UnobservedFault"/>, when the event is garbage
/// collected or at the latest when the scheduler is disposed. A cancellation is not reported.
/// </para>
/// <para>
/// One wait at a time: the event may not be armed again, or yielded by another thread, while a thread waits on it.
/// If the scheduler is disposed while a thread waits, the task's later completion does nothing, and the event cannot
/// be used again.
/// </para>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Flush(Stream stream, Mailbox&lt;byte[]&gt; inbox)
/// {
///     var written = new TaskEvent();           // One event for every write.
///     while (true)
///     {
///         var message = inbox.Recv();
///         yield return message;
///         yield return written.For(stream.WriteAsync(message.Value)); // Parks until the write completes.
///         written.GetResult();                  // Throws if the write failed.
///     }
/// }
/// </code>
/// </example>
/// </remarks>
[DebuggerDisplay("{ToString(),nq}")]
public sealed partial class TaskEvent : Event
{
    /// <summary>The armed task; a <see cref="Task"/> is stored wrapped, so both kinds take one path. Default once its outcome is captured.</summary>
    private ValueTask _task;

    /// <summary>The state of the wait, the parked thread and the captured fault.</summary>
    private TaskWait _wait;

    /// <summary>The continuation registered on each pending task; created by the first wait that parks, then reused.</summary>
    private Action? _onCompleted;

    /// <summary>Arms the event to wait for <paramref name="task"/> at the next yield.</summary>
    /// <param name="task">The task to wait for.</param>
    /// <returns>This event, to yield.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="task"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A green thread is still waiting on this event, or its wait was abandoned by a scheduler's disposal.</exception>
    public TaskEvent For(Task task)
    {
        ArgumentNullException.ThrowIfNull(task);
        return Arm(new ValueTask(task));
    }

    /// <summary>
    /// Arms the event to wait for <paramref name="task"/> at the next yield. The event reads the value task's outcome
    /// once, as <c>await</c> does; do not await or read it elsewhere.
    /// </summary>
    /// <param name="task">The value task to wait for.</param>
    /// <returns>This event, to yield.</returns>
    /// <exception cref="InvalidOperationException">A green thread is still waiting on this event, or its wait was abandoned by a scheduler's disposal.</exception>
    public TaskEvent For(ValueTask task) => Arm(task);

    /// <summary>
    /// Ends the wait the way <c>await</c> does: returns if the task succeeded, and otherwise throws its exception
    /// with its original stack trace (a cancelled task throws an <see cref="OperationCanceledException"/>). May be
    /// called again; it throws the same exception every time.
    /// </summary>
    /// <exception cref="InvalidOperationException">No wait has completed since the event was last armed.</exception>
    public void GetResult() => _wait.Read(this, "called GetResult() on");

    /// <inheritdoc/>
    public override string ToString() => $"TaskEvent ({_wait.Describe()})";

    internal override string TraceText => "TaskEvent";

    internal override void DescribeWait(WaitDescription into) => into.Say($"a task to complete, outside the scheduler ({_wait.Describe()})").Outside = true;

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (_wait.IsLingering)
        {
            // Left waiting on its task by a choice: wait for the same task, through the continuation already registered.
            return TryCompleteLingering(thread) || !_wait.Rejoin(thread, this, thread) ? CaptureLingering(thread) : EventOutcome.Parked;
        }

        _wait.CheckArmed(thread, this);
        // In an explored run that declared outside work a completed task still parks the thread, and its completion
        // comes back as a wake-up from outside, which the run takes when its strategy picks it: whether the task had
        // completed by now is real time.
        var seeded = thread.Scheduler.SeedsOutsideWork;
        if (_task.IsCompletedSuccessfully && !seeded)
        {
            // The common fast case (a cached or synchronously completed task): no compare-and-swap, no try block.
            _wait.TakeCompleted(thread);
            CaptureSuccess();
            return EventOutcome.Continue;
        }

        _wait.BeginPark(thread, this);
        try
        {
            var awaiter = _task.ConfigureAwait(false).GetAwaiter();
            if (awaiter.IsCompleted && !seeded)
            {
                Capture(thread);
                return EventOutcome.Continue;
            }

            _wait.SetWaiter(thread);

            // From here the thread may be made ready, and run on another worker, before this returns.
            awaiter.UnsafeOnCompleted(_onCompleted ??= OnCompleted);
            return EventOutcome.Parked;
        }
        catch
        {
            // A value task whose source refuses it (read already, or reset): nothing was registered. The thread
            // ends with the source's exception; the event may be armed again.
            _task = default;
            _wait.AbortPark();
            throw;
        }
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        _wait.CheckResume(thread, this, _task.IsCompleted);
        Capture(thread);
        return EventOutcome.Continue;
    }

    /// <inheritdoc/>
    internal override string? NotChoosableBecause => null;

    internal override EventOutcome TryCompleteNow(GreenThread thread)
    {
        if (_wait.IsLingering)
        {
            return TryCompleteLingering(thread) ? CaptureLingering(thread) : EventOutcome.Parked;
        }

        _wait.CheckArmed(thread, this);
        if (!_task.IsCompleted || thread.Scheduler.SeedsOutsideWork)
        {
            // Seeded: the branch is not ready yet; enlisting registers it, and its completion comes back from outside.
            return EventOutcome.Parked;
        }

        _wait.TakeCompleted(thread);
        Capture(thread);
        return EventOutcome.Continue;
    }

    internal override bool Enlist(GreenThread thread, ChoiceBranch branch, long generation)
    {
        var ticket = new ChoiceTicket(branch, generation);
        if (_wait.IsLingering)
        {
            return _wait.Rejoin(thread, this, ticket);
        }

        _wait.BeginEnlist(thread, this);
        try
        {
            var awaiter = _task.ConfigureAwait(false).GetAwaiter();
            if (awaiter.IsCompleted && !thread.Scheduler.SeedsOutsideWork)
            {
                _wait.UndoPark();
                return false;
            }

            _wait.SetWaiter(ticket);

            // From here the branch may be fired, and the thread run on another worker once the choice has parked.
            awaiter.UnsafeOnCompleted(_onCompleted ??= OnCompleted);
            return true;
        }
        catch
        {
            _task = default;
            _wait.AbortPark();
            throw;
        }
    }

    internal override void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
        if (!chosen)
        {
            _wait.WithdrawLost();
        }
    }

    internal override EventOutcome CompleteChosen(GreenThread thread)
    {
        if (!_wait.IsWaiting)
        {
            // Chosen because it was found completed while the choice registered its branches: nothing was registered.
            return TryCompleteNow(thread);
        }

        _wait.CheckResume(thread, this, _task.IsCompleted);
        Capture(thread);
        return EventOutcome.Continue;
    }

    /// <summary>Whether a lingering wait's continuation has run, so its task's outcome can be read now.</summary>
    private bool TryCompleteLingering(GreenThread thread)
    {
        if (_wait.Owner != thread)
        {
            _wait.Rejoin(thread, this, thread);
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

    internal override bool TryInterrupt(GreenThread thread) => _wait.TryInterrupt(thread);

    internal override void CompleteInterrupt(GreenThread thread) => _wait.CompleteInterrupt();

    internal override void Abandon(GreenThread thread)
    {
        if (_wait.Abandon(thread))
        {
            _task = default;
        }
    }

    private TaskEvent Arm(ValueTask task)
    {
        if (_wait.IsLingering && _wait.HasFired && _wait.Owner is { } owner)
        {
            // Its task completed after a choice chose another branch, and nothing read the outcome: read it now, so a
            // value-task source is released and a fault is reported, not lost.
            _wait.ResumeLingering();
            Capture(owner);
        }

        _wait.BeginArm(this);
        _task = task;
        _wait.EndArm();
        return this;
    }

    /// <summary>Reads the completed task's outcome, once, and records it.</summary>
    private void Capture(GreenThread thread)
    {
        Exception? fault = null;
        try
        {
            _task.ConfigureAwait(false).GetAwaiter().GetResult();
        }
        catch (Exception exception)
        {
            fault = exception;
        }

        _task = default;
        _wait.Complete(thread, fault);
    }

    /// <summary>Ends a wait on a task that completed successfully: for a value-task source, its one read.</summary>
    private void CaptureSuccess()
    {
        _task.GetAwaiter().GetResult();
        _task = default;
        _wait.CompleteSuccessfully();
    }

    private void OnCompleted() => _wait.Wake();
}
