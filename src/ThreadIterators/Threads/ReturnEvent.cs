using System.Runtime.ExceptionServices;

namespace ThreadIterators;

/// <summary>
/// What a sub-body yields to return (<see cref="Event.Return{T}(T)"/>), its value already stored in its frame: it
/// pops the frame (step 3 of CallStack.cs). Stateless, shared by every thread and scheduler.
/// </summary>
internal sealed class ReturnEvent : Event
{
    internal static ReturnEvent Instance { get; } = new();

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (thread.Body is not CallStack { Depth: > 0 } stack)
        {
            thread.PendingFault = ExceptionDispatchInfo.Capture(new System.InvalidOperationException(
                $"{thread} yielded Event.Return(value) outside a sub-body; only a body run by Event.Call<T> returns a value."));
            return EventOutcome.Faulted;
        }

        stack.Return();
        return EventOutcome.Continue;
    }

    /// <inheritdoc/>
    public override string ToString() => "Event.Return";
}
