namespace ThreadIterators;

/// <summary>
/// What <see cref="Puller{T}.Next"/> returns: sends the puller's free buffers to the producer as requests, then
/// receives the next batch, parking on the puller's reply mailbox until one arrives. One per puller.
/// </summary>
/// <remarks>The puller's green thread only.</remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class NextBatchEvent<T>(Puller<T> puller) : Event, IChoosable
{
    /// <inheritdoc/>
    public override string ToString() => $"Next() on {puller}";

    // The producer is the receiver of the source's request mailbox. In a trace, its name.
    internal override void DescribeWait(WaitDescription into)
    {
        if (into.ForTrace)
        {
            return;
        }

        var producer = puller.Source.Requests.Receiver;
        into.Say($"a batch from {puller}{(producer is null ? string.Empty : $", produced by {producer}")}").WaitsOn(producer);
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (puller.IsCompleted)
        {
            return EventOutcome.Continue;
        }

        puller.Ask();
        return Received(puller.Replies.Recv().Park(thread, worker));
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => Received(puller.Replies.Recv().Resume(thread, worker));

    /// <summary>Once the reply mailbox's receive has completed, hands the batch to the puller.</summary>
    private EventOutcome Received(EventOutcome outcome)
    {
        if (outcome == EventOutcome.Continue)
        {
            puller.Received(puller.Replies.Recv().Value);
        }

        return outcome;
    }

    internal override void Abandon(GreenThread thread) => puller.Replies.Recv().Abandon(thread);

    // As a branch of a choice (a timeout): a wait on the reply mailbox's receive, after asking. A losing Next has
    // handed the batch it read before back to the producer, as every Next does; its requests stay out, so the batch
    // they bring is there for the next Next.

    /// <inheritdoc/>
    EventOutcome IChoosable.TryCompleteNow(GreenThread thread)
    {
        if (puller.IsCompleted)
        {
            return EventOutcome.Continue;
        }

        puller.Ask();
        return Received(Replies.TryCompleteNow(thread));
    }

    /// <inheritdoc/>
    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => Replies.Enlist(thread, branch, generation, worker);

    /// <inheritdoc/>
    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => Replies.Withdraw(thread, branch, chosen);

    /// <inheritdoc/>
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => Received(Replies.CompleteChosen(thread));

    // Parked only on the reply mailbox, after its requests went to the producer; a batch that comes stays there.
    internal override bool TryInterrupt(GreenThread thread) => puller.Replies.Recv().TryInterrupt(thread);

    /// <summary>Gets the reply mailbox's receive as a branch, whose branch protocol this event's is.</summary>
    private IChoosable Replies => puller.Replies.Recv();
}
