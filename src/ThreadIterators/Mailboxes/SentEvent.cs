namespace ThreadIterators;

/// <summary>
/// What <see cref="Mailbox{T}.Put"/> returns when the message went in at once: an event that completes without
/// parking. Stateless and shared.
/// </summary>
/// <remarks>
/// Choosable only to be given a timeout (<see cref="IChoosable.TimesOutAlone"/>), so that <c>Put(m).WithTimeout(t)</c>
/// means the same with room as without: it completes at once, not timed out. Among other branches it is refused, as a
/// waiting put made by <c>Put</c> is: its message is in before the choice is made.
/// </remarks>
internal sealed class SentEvent : Event, IChoosable, IPutYield
{
    internal static SentEvent Instance { get; } = new();

    /// <inheritdoc/>
    string? IChoosable.NotChoosableBecause =>
        "Put(message) sent its message at once, as there was room, so a choice could not withdraw it; use CreatePutEvent().For(message), which sends only if chosen";

    /// <inheritdoc/>
    bool IChoosable.TimesOutAlone => true;

    /// <inheritdoc/>
    bool IPutYield.IsPutFromPut => true;

    /// <inheritdoc/>
    public override string ToString() => "a Put() that found room";

    internal override EventOutcome Park(GreenThread thread, Worker worker) => EventOutcome.Continue;

    // The message is in: every look completes, and nothing is ever registered or withdrawn.
    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => EventOutcome.Continue;

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => false;

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
    }

    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => EventOutcome.Continue;
}
