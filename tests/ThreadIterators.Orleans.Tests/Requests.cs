using Orleans;

namespace ThreadIterators.Orleans.Tests;

/// <summary>A request to double a number, answered through the handle it carries; a negative number is failed.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.Tests.DoubleRequest")]
public sealed record DoubleRequest([property: Id(0)] long Value, [property: Id(1)] RemoteReplyTo<long> Reply);
