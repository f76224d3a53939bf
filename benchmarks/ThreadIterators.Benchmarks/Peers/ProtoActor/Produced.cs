namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One producer's message: who sent it and its place in that producer's order, which the consumer checks. The two are
/// fields of a typed message rather than packed into a <c>long</c> as the green threads do; either way each message is
/// one object (32 bytes here, 24 for a boxed <c>long</c>).
/// </summary>
/// <param name="Producer">The producer, 0 or 1.</param>
/// <param name="Sequence">The message's place in its producer's order.</param>
internal sealed record Produced(int Producer, long Sequence);
