using System;
using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>A notification: the process a monitor watches has ended.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.MonitorExit")]
internal sealed class MonitorExit
{
    [Id(0)]
    public Guid Monitor { get; set; }

    [Id(1)]
    public ProcessExitInfo Exit { get; set; } = new();
}
