namespace ThreadIterators;

/// <summary>
/// What <see cref="Puller{T}.Next"/> returns: sends the puller's free buffers to the producer as requests, then
/// receives the next batch, parking on the puller's reply mailbox until one arrives. One per puller.
/// </summary>
/// <remarks>The puller's green thread only.</remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class NextBatchEvent<T>(Puller<T> puller) : Event
{
    /// <inheritdoc/>
    public override string ToString() => $"Next() on {puller}";

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

    // Parked only on the reply mailbox, after its requests went to the producer; a batch that comes stays there.
    internal override bool TryInterrupt(GreenThread thread) => puller.Replies.Recv().TryInterrupt(thread);
}
