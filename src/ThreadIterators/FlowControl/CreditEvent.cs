namespace ThreadIterators;

/// <summary>
/// The event <see cref="CreditWindow.Acquire"/> returns: takes a credit, or parks the thread in the window's queue
/// until a release hands it one. Stateless beyond its window, so one instance serves every acquirer.
/// </summary>
internal sealed class CreditEvent(CreditWindow window) : Event
{
    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        window.AcquireOrQueue(thread) ? EventOutcome.Continue : EventOutcome.Parked;

    /// <summary>Resumed only by the release that handed this thread its credit.</summary>
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    internal override void Abandon(GreenThread thread) => window.Withdraw(thread);

    internal override bool TryInterrupt(GreenThread thread) => window.Withdraw(thread);

    /// <inheritdoc/>
    internal override string? NotChoosableBecause => null;

    internal override EventOutcome TryCompleteNow(GreenThread thread) => window.TryAcquire() ? EventOutcome.Continue : EventOutcome.Parked;

    internal override bool Enlist(GreenThread thread, ChoiceBranch branch, long generation) => window.Watch(branch, generation);

    internal override void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => window.Unwatch(branch);

    /// <inheritdoc/>
    public override string ToString() => $"Acquire() on {window}";

    internal override void DescribeWait(WaitDescription into) => into.Say($"a credit of {window} (released by its consumer)");
}
