namespace ThreadIterators;

/// <summary>
/// The event <see cref="CreditWindow.Acquire"/> returns: takes a credit, or parks the thread in the window's queue
/// until a release hands it one. Stateless beyond its window, so one instance serves every acquirer.
/// </summary>
internal sealed class CreditEvent(CreditWindow window) : Event, IChoosable
{
    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        window.AcquireOrQueue(thread) ? EventOutcome.Continue : EventOutcome.Parked;

    /// <summary>Resumed only by the release that handed this thread its credit.</summary>
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    internal override void Abandon(GreenThread thread) => window.Withdraw(thread);

    internal override bool TryInterrupt(GreenThread thread) => window.Withdraw(thread);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => TryAcquire();

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => window.Watch(branch, generation);

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => window.Unwatch(branch);

    // A release fires every watcher and reserves nothing: the chosen one tries as the look does, and may lose the credit.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => TryAcquire();

    /// <inheritdoc/>
    public override string ToString() => $"Acquire() on {window}";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"a credit of {window} (released by its consumer)");
        }
    }

    /// <summary>Takes a credit if one is free: Continue, else Parked, with nothing taken.</summary>
    private EventOutcome TryAcquire() => window.TryAcquire() ? EventOutcome.Continue : EventOutcome.Parked;
}
