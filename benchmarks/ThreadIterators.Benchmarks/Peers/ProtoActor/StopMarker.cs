namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// The end-of-run marker of the rings and the cache-affinity actors. It carries nothing, so one instance serves every
/// send and the marker costs no allocation, as the green threads' <c>-1</c> does not.
/// </summary>
internal sealed class StopMarker
{
    /// <summary>The one marker.</summary>
    public static readonly StopMarker Instance = new();

    private StopMarker()
    {
    }
}
