using System;
using System.Diagnostics;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to wait for a <see cref="Task{TResult}"/> or <see cref="ValueTask{TResult}"/>
/// without blocking its worker: the thread parks until the task has completed, and resumes on a worker of its own
/// scheduler, never on the OS thread that completed the task. After the thread resumes, <see cref="Result"/> holds
/// the task's result, or throws the task's exception as <c>await</c> would.
/// </summary>
/// <remarks>
/// <para>
/// Reusable: arm it with <see cref="For(Task{T})"/> or <see cref="For(ValueTask{T})"/> before each yield. A task
/// already completed when the event is yielded does not park the thread, and the wait allocates nothing; a pending
/// one allocates nothing beyond what the task itself does. For a one-off wait,
/// <see cref="TaskEventExtensions.AsEvent{T}(Task{T})"/> makes a new event per call.
/// </para>
/// <para>
/// The task's exception is thrown when the body reads <see cref="Result"/>, not at the <c>yield return</c>: C#
/// forbids a <c>yield return</c> inside a <c>try</c> block that has a <c>catch</c>, so this is the only place a body
/// can catch it. A fault that is never read (the event armed again, dropped, or its thread ended without reading
/// <see cref="Result"/>) is reported through <see cref="Scheduler.UnobservedFault"/>, when the event is garbage
/// collected or at the latest when the scheduler is disposed. A cancellation is not reported.
/// </para>
/// <para>
/// One wait at a time: the event may not be armed again, or yielded by another thread, while a thread waits on it.
/// If the scheduler is disposed while a thread waits, the task's later completion does nothing, and the event cannot
/// be used again.
/// </para>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Copy(Stream from, Mailbox&lt;byte[]&gt; to)
/// {
///     var buffer = new byte[4096];
///     var read = new TaskEvent&lt;int&gt;();        // One event for every read.
///     while (true)
///     {
///         yield return read.For(from.ReadAsync(buffer));   // Parks until bytes arrive; the worker runs other threads.
///         int count;
///         try
///         {
///             count = read.Result;              // Throws the read's exception, if it failed.
///         }
///         catch (IOException)
///         {
///             yield break;
///         }
///
///         if (count == 0) yield break;
///         to.Send(buffer[..count]);
///     }
/// }
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="T">The type of the task's result.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class TaskEvent<T> : Event, IChoosable
{
    /// <summary>The wait on the armed task, and its result, shared with <see cref="TaskEvent"/>: every member below forwards to it.</summary>
    private TaskEventCore<ValueTaskSlot<T>> _core;

    /// <summary>
    /// Gets the result of the task the thread last waited for, or throws the task's exception with its original
    /// stack trace, as <c>await</c> does (a cancelled task throws an <see cref="OperationCanceledException"/>). May be
    /// read again; it throws the same exception every time.
    /// </summary>
    /// <exception cref="InvalidOperationException">No wait has completed since the event was last armed.</exception>
    public T Result
    {
        get
        {
            _core.Read(this, "read the Result of");
            return _core.Slot.Result;
        }
    }

    /// <summary>Arms the event to wait for <paramref name="task"/> at the next yield.</summary>
    /// <param name="task">The task to wait for.</param>
    /// <returns>This event, to yield.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="task"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A green thread is still waiting on this event, or its wait was abandoned by a scheduler's disposal.</exception>
    public TaskEvent<T> For(Task<T> task)
    {
        ArgumentNullException.ThrowIfNull(task);
        return For(new ValueTask<T>(task));
    }

    /// <summary>
    /// Arms the event to wait for <paramref name="task"/> at the next yield. The event reads the value task's result
    /// once, as <c>await</c> does; do not await or read it elsewhere.
    /// </summary>
    /// <param name="task">The value task to wait for.</param>
    /// <returns>This event, to yield.</returns>
    /// <exception cref="InvalidOperationException">A green thread is still waiting on this event, or its wait was abandoned by a scheduler's disposal.</exception>
    public TaskEvent<T> For(ValueTask<T> task)
    {
        _core.Arm(this, new ValueTaskSlot<T>(task));
        return this;
    }

    /// <inheritdoc/>
    public override string ToString() => $"TaskEvent<{TypeNames.Of<T>()}> ({_core.Describe()})";

    internal override void DescribeWait(WaitDescription into) =>
        _core.DescribeWait(into, $"TaskEvent<{TypeNames.Of<T>()}>", $"a Task<{TypeNames.Of<T>()}>");

    internal override EventOutcome Park(GreenThread thread, Worker worker) => _core.Park(this, thread);

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => _core.Resume(this, thread);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => _core.TryCompleteNow(this, thread);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => _core.Enlist(this, thread, branch, generation);

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => _core.Withdraw(chosen);

    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => _core.CompleteChosen(this, thread);

    internal override bool TryInterrupt(GreenThread thread) => _core.TryInterrupt(thread);

    internal override void CompleteInterrupt(GreenThread thread) => _core.CompleteInterrupt();

    internal override void Abandon(GreenThread thread) => _core.Abandon(thread);

    /// <summary>The continuation registered on each pending task (<see cref="ITaskSlot.ContinuationOf"/>).</summary>
    internal void OnCompleted() => _core.Wake();
}
