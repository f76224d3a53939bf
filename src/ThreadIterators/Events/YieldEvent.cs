namespace ThreadIterators;

/// <summary>
/// Gives up the rest of the turn. Stateless and shared by every thread and scheduler.
/// </summary>
internal sealed class YieldEvent : Event
{
    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        worker.YieldTurn(thread);
        return EventOutcome.Parked;
    }

    // Stopped while queued at the yield: it ends there (once a turn, so the look costs nothing that shows).
    internal override EventOutcome Resume(GreenThread thread, Worker worker) =>
        thread.PendingFault is null ? EventOutcome.Continue : EventOutcome.Faulted;

    /// <inheritdoc/>
    public override string ToString() => "Event.Yield";
}
