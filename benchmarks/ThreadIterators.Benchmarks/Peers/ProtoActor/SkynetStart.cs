namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// Tells a freshly spawned Skynet node which leaves are its own. Proto.Actor spawns from a <see cref="Proto.Props"/>,
/// and one shared Props (not one per node, with a closure over the node's range) with a start message is how the
/// library's own Skynet benchmark does it; the message is the one step the green node does not need.
/// </summary>
/// <param name="Ordinal">The first leaf under the node.</param>
/// <param name="Size">The leaves under the node; 1 for a leaf.</param>
internal sealed record SkynetStart(long Ordinal, long Size);
