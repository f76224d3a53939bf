namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>A Skynet node's answer to its parent: the sum of the ordinals of the leaves under it.</summary>
/// <param name="Value">The sum.</param>
internal sealed record SkynetSum(long Value);
