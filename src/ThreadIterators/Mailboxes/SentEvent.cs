namespace ThreadIterators;

/// <summary>
/// What <see cref="Mailbox{T}.Put"/> returns when the message went in at once: an event that completes without
/// parking. Stateless and shared.
/// </summary>
internal sealed class SentEvent : Event
{
    internal static SentEvent Instance { get; } = new();

    internal override EventOutcome Park(GreenThread thread, Worker worker) => EventOutcome.Continue;

    /// <inheritdoc/>
    public override string ToString() => "a Put() that found room";
}
