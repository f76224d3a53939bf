using Orleans;
using ThreadIterators.Orleans;

namespace ThreadIterators.Samples.Cluster;

/// <summary>What a room receives, from a connection on any silo: a join (with the member's handle), a leave, or a line.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Samples.Cluster.RoomCommand")]
public sealed record RoomCommand(
    [property: Id(0)] RoomCommandKind Kind,
    [property: Id(1)] string Member,
    [property: Id(2)] ProcessRef<string>? Handle = null,
    [property: Id(3)] string? Line = null);
