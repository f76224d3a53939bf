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
        var yielded = thread.Body!.Current;


        // Set before parking, as every park does: once parked, the thread may resume on another worker at once.
        thread.WaitingOn = yielded;
        var outcome = yielded.Park(thread, worker);

        // Stopped while queued at the yield: the event parks all the same, as at a yield within a turn, so that a result
        // already decided for the thread (a reply Reply() reported delivered) reaches it. One that completes at once
        // goes to the body, and the stop ends the thread at its next yield; one that parks is taken back by the look
        // after every park.
        return outcome == EventOutcome.Continue && thread.PendingFault is { } pending && !GreenThread.IsMarkOf(pending, yielded)
            ? EventOutcome.Delivered
            : outcome;
    }

    /// <inheritdoc/>
    public override string ToString() => "a park deferred to the next turn";
}
