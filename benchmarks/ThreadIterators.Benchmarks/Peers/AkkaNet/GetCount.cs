namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>Asks CountingActor's counter for its total, which it answers to the sender. Carries nothing, so one instance serves.</summary>
internal sealed class GetCount
{
    private GetCount()
    {
    }

    /// <summary>Gets the one instance.</summary>
    public static GetCount Instance { get; } = new();
}
