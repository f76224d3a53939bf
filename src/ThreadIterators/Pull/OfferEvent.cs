namespace ThreadIterators;

/// <summary>
/// What <see cref="PullSource{T}.Offer"/> returns: puts the item into the batch being filled, taking the next request
/// first (and parking on the request mailbox while there is none), and sends the batch once it is full. One per
/// source; it holds the item being offered.
/// </summary>
/// <remarks>The producing green thread only.</remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class OfferEvent<T>(PullSource<T> source) : Event, IChoosable
{
    /// <summary>The item being offered. Producer only.</summary>
    internal T Item = default!;

    /// <inheritdoc/>
    public override string ToString() => $"Offer() on {source}";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"a request from a puller of {source} (offering an item)");
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        source.Current is null ? Received(source.Requests.Recv().Park(thread, worker)) : Add();

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => Received(source.Requests.Recv().Resume(thread, worker));

    /// <summary>Once the request mailbox's receive has completed, takes the request and adds the item to it.</summary>
    private EventOutcome Received(EventOutcome outcome)
    {
        if (outcome != EventOutcome.Continue)
        {
            return outcome;
        }

        source.Current = source.Requests.Recv().Value;
        return Add();
    }

    internal override void Abandon(GreenThread thread) => source.Requests.Recv().Abandon(thread);

    // As a branch of a choice (a timeout): a wait on the request mailbox's receive. A losing offer took no request
    // and handed out nothing; the item stays unoffered.

    /// <inheritdoc/>
    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) =>
        source.Current is null ? Received(Requests.TryCompleteNow(thread)) : Add();

    /// <inheritdoc/>
    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => Requests.Enlist(thread, branch, generation, worker);

    /// <inheritdoc/>
    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => Requests.Withdraw(thread, branch, chosen);

    /// <inheritdoc/>
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => Received(Requests.CompleteChosen(thread));

    /// <summary>Gets the request mailbox's receive as a branch, whose branch protocol this event's is.</summary>
    private IChoosable Requests => source.Requests.Recv();

    // Parked only on the request mailbox; the request it waited for stays there for the next offer.
    internal override bool TryInterrupt(GreenThread thread) => source.Requests.Recv().TryInterrupt(thread);

    private EventOutcome Add()
    {
        var batch = source.Current!;
        batch.Items[batch.Count++] = Item;
        Item = default!;
        if (batch.Count == batch.Items.Length)
        {
            source.Current = null;
            batch.Owner.Replies.SendAlongside(batch);
        }

        return EventOutcome.Continue;
    }
}
