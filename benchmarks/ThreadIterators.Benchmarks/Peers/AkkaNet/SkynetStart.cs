namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// Tells a Skynet node which leaves it stands for. A message rather than constructor arguments, so every node is
/// made from one shared <c>Props</c>, as Akka.NET's own Skynet port does, and creating a node builds no props.
/// </summary>
/// <param name="Ordinal">The ordinal of the node's first leaf.</param>
/// <param name="Size">Leaves under the node: 1 for a leaf.</param>
internal sealed record SkynetStart(long Ordinal, long Size);
