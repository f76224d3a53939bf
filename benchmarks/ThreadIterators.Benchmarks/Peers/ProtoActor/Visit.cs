namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A cache-affinity message: the hops it still has to make. It changes at every hop and messages are objects, so each
/// hop allocates one (24 bytes, as boxing the green threads' <c>long</c> would).
/// </summary>
/// <param name="Hops">Hops left, this one included.</param>
internal sealed record Visit(long Hops);
