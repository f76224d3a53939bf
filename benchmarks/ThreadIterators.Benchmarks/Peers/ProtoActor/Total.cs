namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>The counter's answer to <see cref="GetCount"/>.</summary>
/// <param name="Count">The sum of the increments received.</param>
internal sealed record Total(long Count);
