namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One of the ring's M messages. Made once by the pump and forwarded as the same object by every forwarder, so the
/// ring allocates per message, not per hop.
/// </summary>
/// <param name="Sequence">The message's place in the pump's order, which the drain checks.</param>
internal sealed record RingItem(int Sequence);
