using Orleans;

namespace ThreadIterators.Orleans.NodeHost;

/// <summary>An ask the node's silent process takes and never answers.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.NodeHost.SilentRequest")]
public sealed record SilentRequest([property: Id(0)] RemoteReplyTo<int> Reply);
