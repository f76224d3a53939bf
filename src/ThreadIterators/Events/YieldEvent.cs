namespace ThreadIterators;

/// <summary>
/// Gives up the rest of the turn. Stateless and shared by every thread and scheduler.
/// </summary>
internal sealed class YieldEvent : Event
{
    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        worker.GiveUpTurn(thread);
        return EventOutcome.Parked;
    }

    /// <inheritdoc/>
    public override string ToString() => "Event.Yield";
}
