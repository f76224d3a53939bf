namespace ThreadIterators;

/// <summary>
/// What <see cref="PullSource{T}.Complete"/> returns: sends the partly filled batch, then answers requests with the
/// end until every connected puller has been told, parking on the request mailbox between them.
/// </summary>
/// <remarks>The producing green thread only.</remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class CompleteEvent<T>(PullSource<T> source) : Event, IChoosable
{
    /// <summary>Pullers told so far. Producer only.</summary>
    private int _told;

    /// <inheritdoc/>
    public override string ToString() => $"Complete() on {source}";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"every puller of {source} to be told of its end");
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        SendPartial();
        return TellAll(thread, worker);
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        var receive = source.Requests.Recv();
        var outcome = receive.Resume(thread, worker);
        if (outcome != EventOutcome.Continue)
        {
            return outcome;
        }

        Tell(receive.Value);
        return TellAll(thread, worker);
    }

    internal override void Abandon(GreenThread thread) => source.Requests.Recv().Abandon(thread);

    // As a branch of a choice (a timeout): a wait on the request mailbox's receive, between tellings. A losing
    // Complete has sent the partial batch and told the pullers whose requests had come; the next Complete goes on
    // from there.

    /// <inheritdoc/>
    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => TellAllNow(thread);

    /// <inheritdoc/>
    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => Requests.Enlist(thread, branch, generation, worker);

    /// <inheritdoc/>
    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => Requests.Withdraw(thread, branch, chosen);

    /// <inheritdoc/>
    EventOutcome IChoosable.CompleteChosen(GreenThread thread)
    {
        if (Requests.CompleteChosen(thread) != EventOutcome.Continue)
        {
            return EventOutcome.Parked;
        }

        Tell(source.Requests.Recv().Value);
        return TellAllNow(thread);
    }

    /// <summary>Gets the request mailbox's receive as a branch, whose branch protocol this event's is.</summary>
    private IChoosable Requests => source.Requests.Recv();

    /// <summary>Sends the partial batch and tells every puller whose request is there; Parked, with those told, until the rest have asked.</summary>
    private EventOutcome TellAllNow(GreenThread thread)
    {
        SendPartial();
        var receive = source.Requests.Recv();
        while (_told < source.Connected)
        {
            if (((IChoosable)receive).TryCompleteNow(thread) != EventOutcome.Continue)
            {
                return EventOutcome.Parked;
            }

            Tell(receive.Value);
        }

        return EventOutcome.Continue;
    }

    private void SendPartial()
    {
        if (source.Current is { } partial)
        {
            source.Current = null;
            partial.Owner.Replies.SendAlongside(partial);
        }
    }

    // Parked only on the request mailbox, between two pullers told.
    internal override bool TryInterrupt(GreenThread thread) => source.Requests.Recv().TryInterrupt(thread);

    private EventOutcome TellAll(GreenThread thread, Worker worker)
    {
        var receive = source.Requests.Recv();
        while (_told < source.Connected)
        {
            var outcome = receive.Park(thread, worker);
            if (outcome != EventOutcome.Continue)
            {
                return outcome;
            }

            Tell(receive.Value);
        }

        return EventOutcome.Continue;
    }

    /// <summary>Answers a request with the end; a puller with two requests out is told once and its second request dropped.</summary>
    private void Tell(PullRequest<T> request)
    {
        var puller = request.Owner;
        if (puller.Told)
        {
            return;
        }

        puller.Told = true;
        _told++;
        request.Count = 0;
        request.End = true;
        puller.Replies.SendAlongside(request);
    }
}
