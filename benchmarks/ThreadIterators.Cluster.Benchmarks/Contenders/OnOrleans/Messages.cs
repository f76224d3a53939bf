using Orleans;
using ThreadIterators.Orleans;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>A ping to the echo process: it sends <see cref="Seq"/> back to <see cref="ReplyTo"/>.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Cluster.Benchmarks.Ping")]
public sealed record Ping([property: Id(0)] long Seq, [property: Id(1)] ProcessRef<long> ReplyTo);

/// <summary>A message of the one-way stream; the sink acknowledges one that carries <see cref="AckTo"/>.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Cluster.Benchmarks.StreamItem")]
public sealed record StreamItem([property: Id(0)] long Seq, [property: Id(1)] ProcessRef<long>? AckTo);
