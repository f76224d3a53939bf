using System;

namespace ThreadIterators;

/// <summary>
/// Stands in <see cref="GreenThread.WaitingOn"/> for a thread whose step budget ran out right after it yielded an
/// event: the thread goes to the back of the queue without parking on that event, and parks on it at the start of
/// its next turn. Parking at once instead could take a message, and a thread disposed while queued with a message
/// taken but not yet handled would lose it.
/// </summary>
/// <remarks>
/// Any thread: stateless, one instance shared by every thread and scheduler; only the worker running a thread sets it.
/// </remarks>
internal sealed class DeferredParkEvent : Event
{
    /// <summary>Gets the one instance; it keeps no state, the yielded event is still the body's <c>Current</c>.</summary>
    internal static DeferredParkEvent Instance { get; } = new();

    /// <summary>Never called: only the worker sets this event, and no body can yield it.</summary>
    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        throw new InvalidOperationException($"{thread} yielded {this}, which is the scheduler's own marker, not an event.");

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        if (thread.PendingFault is not null)
        {
            // Stopped while queued at the yield: it ends there, before the yielded event does anything.
            return EventOutcome.Faulted;
        }

        var yielded = thread.Body!.Current;

        // Set before parking, as every park does: once parked, the thread may resume on another worker at once.
        thread.WaitingOn = yielded;
        return yielded.Park(thread, worker);
    }

    /// <inheritdoc/>
    public override string ToString() => "a park deferred to the next turn";
}
