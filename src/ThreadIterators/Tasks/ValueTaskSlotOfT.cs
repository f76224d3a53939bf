using System;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// The armed task of a <see cref="TaskEvent{T}"/>: a <see cref="ValueTask{TResult}"/>, a <see cref="Task{TResult}"/>
/// stored wrapped, so both kinds take one path; and the result of the last completed wait.
/// </summary>
/// <typeparam name="T">The type of the task's result.</typeparam>
internal struct ValueTaskSlot<T> : ITaskSlot
{
    /// <summary>The armed task; default once its outcome is read.</summary>
    private ValueTask<T> _task;

    /// <summary>The result of the last completed wait; default while there is none, and from the next arming.</summary>
    private T _result;

    /// <summary>Initializes a new instance of the <see cref="ValueTaskSlot{T}"/> struct, armed with <paramref name="task"/> and no result.</summary>
    internal ValueTaskSlot(ValueTask<T> task)
    {
        _task = task;
        _result = default!;
    }

    /// <summary>Gets the result of the last completed wait.</summary>
    internal readonly T Result => _result;

    /// <inheritdoc/>
    public readonly bool IsCompleted => _task.IsCompleted;

    /// <inheritdoc/>
    public readonly bool IsCompletedSuccessfully => _task.IsCompletedSuccessfully;

    /// <inheritdoc/>
    public static Action ContinuationOf(Event owner) => ((TaskEvent<T>)owner).OnCompleted;

    /// <inheritdoc/>
    public readonly void UnsafeOnCompleted(Action continuation) => _task.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(continuation);

    /// <inheritdoc/>
    public void GetResult() => _result = _task.Result;

    /// <inheritdoc/>
    public void Clear() => _task = default;
}
