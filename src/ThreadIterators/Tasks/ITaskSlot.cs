using System;

namespace ThreadIterators;

/// <summary>
/// The armed task of one kind and the result read from it: what <see cref="TaskEventCore{TSlot}"/> needs of a task, so
/// that it runs the wait protocol once for <see cref="TaskEvent"/> (<see cref="ValueTaskSlot"/>) and
/// <see cref="TaskEvent{T}"/> (<see cref="ValueTaskSlot{T}"/>).
/// </summary>
/// <remarks>
/// Implemented by structs only, and used only as a constraint: each slot type gets its own compiled core, whose calls
/// to these members are direct and inlined, so the shared protocol costs no dispatch.
/// </remarks>
internal interface ITaskSlot
{
    /// <summary>Gets a value indicating whether the task has completed, in any way.</summary>
    bool IsCompleted { get; }

    /// <summary>Gets a value indicating whether the task has completed successfully.</summary>
    bool IsCompletedSuccessfully { get; }

    /// <summary>
    /// Makes the continuation the core registers on a pending task: a wake-up of <paramref name="owner"/>'s wait.
    /// Called once per event, by its first wait that registers; the event's type is the slot's.
    /// </summary>
    static abstract Action ContinuationOf(Event owner);

    /// <summary>Registers <paramref name="continuation"/> on the task, run on whichever OS thread completes it.</summary>
    void UnsafeOnCompleted(Action continuation);

    /// <summary>
    /// Reads the completed task's outcome, once, as <c>await</c> does (a value-task source allows one read): keeps
    /// the result, or throws the task's exception.
    /// </summary>
    void GetResult();

    /// <summary>Drops the task, so a completed one is not kept alive and a value-task source is not read again.</summary>
    void Clear();
}
