using System;
using Orleans;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>The answer to a monitor: whether a process runs under the name, and on which silo.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.MonitorReply")]
internal sealed class MonitorReply
{
    [Id(0)]
    public bool Running { get; set; }

    [Id(1)]
    public SiloAddress? Silo { get; set; }

    /// <summary>Gets or sets the incarnation of the process watched, so that a link's exit stops that one only.</summary>
    [Id(2)]
    public Guid Incarnation { get; set; }
}
