using System;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>The armed task of a <see cref="TaskEvent"/>: a <see cref="ValueTask"/>, a <see cref="Task"/> stored wrapped, so both kinds take one path.</summary>
internal struct ValueTaskSlot : ITaskSlot
{
    /// <summary>The armed task; default once its outcome is read.</summary>
    private ValueTask _task;

    /// <summary>Initializes a new instance of the <see cref="ValueTaskSlot"/> struct, armed with <paramref name="task"/>.</summary>
    internal ValueTaskSlot(ValueTask task) => _task = task;

    /// <inheritdoc/>
    public readonly bool IsCompleted => _task.IsCompleted;

    /// <inheritdoc/>
    public readonly bool IsCompletedSuccessfully => _task.IsCompletedSuccessfully;

    /// <inheritdoc/>
    public static Action ContinuationOf(Event owner) => ((TaskEvent)owner).OnCompleted;

    /// <inheritdoc/>
    public readonly void UnsafeOnCompleted(Action continuation) => _task.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(continuation);

    /// <inheritdoc/>
    public readonly void GetResult() => _task.GetAwaiter().GetResult();

    /// <inheritdoc/>
    public void Clear() => _task = default;
}
