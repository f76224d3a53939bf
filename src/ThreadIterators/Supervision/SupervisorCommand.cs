using System;
using System.Threading.Tasks;

namespace ThreadIterators.Supervision;

/// <summary>A request to a running supervisor's thread: add a child, remove one, or look at delayed restarts.</summary>
internal sealed class SupervisorCommand
{
    /// <summary>The wake-up a delayed restart's timer sends; shared, since it carries nothing.</summary>
    internal static readonly SupervisorCommand Wake = new(null, null);

    internal SupervisorCommand(ChildSpec? add, string? remove)
    {
        Add = add;
        Remove = remove;
        if (add is not null)
        {
            Added = new TaskCompletionSource<GreenThread>(TaskCreationOptions.RunContinuationsAsynchronously);
        }
        else if (remove is not null)
        {
            Removed = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        }
    }

    /// <summary>The spec of the child to add, or null.</summary>
    internal ChildSpec? Add { get; }

    /// <summary>The id of the child to remove, or null.</summary>
    internal string? Remove { get; }

    /// <summary>Completed with the added child's thread; null unless <see cref="Add"/> is set.</summary>
    internal TaskCompletionSource<GreenThread>? Added { get; }

    /// <summary>Completed with whether the child was there; null unless <see cref="Remove"/> is set.</summary>
    internal TaskCompletionSource<bool>? Removed { get; }

    /// <summary>Fails the command's task.</summary>
    internal void Fail(Exception exception)
    {
        Added?.TrySetException(exception);
        Removed?.TrySetException(exception);
    }

    /// <inheritdoc/>
    public override string ToString() => Add is not null ? $"start {Add}" : Remove is not null ? $"remove child '{Remove}'" : "wake";
}
