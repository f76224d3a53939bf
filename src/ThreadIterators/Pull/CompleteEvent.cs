namespace ThreadIterators;

/// <summary>
/// What <see cref="PullSource{T}.Complete"/> returns: sends the partly filled batch, then answers requests with the
/// end until every connected puller has been told, parking on the request mailbox between them.
/// </summary>
/// <remarks>The producing green thread only.</remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class CompleteEvent<T>(PullSource<T> source) : Event
{
    /// <summary>Pullers told so far. Producer only.</summary>
    private int _told;

    /// <inheritdoc/>
    public override string ToString() => $"Complete() on {source}";

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (source.Current is { } partial)
        {
            source.Current = null;
            partial.Owner.Replies.SendAlongside(partial);
        }

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
