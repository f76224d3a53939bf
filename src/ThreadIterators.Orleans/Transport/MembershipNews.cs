using Orleans;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>What a silo's view of the membership says, for a client: its version, and the silos it holds dead.</summary>
[GenerateSerializer]
[Immutable]
[Alias("ThreadIterators.Orleans.MembershipNews")]
internal sealed class MembershipNews
{
    /// <summary>Gets or sets the version of the view (Orleans' membership version).</summary>
    [Id(0)]
    public long Version { get; set; }

    /// <summary>Gets or sets the silos the view holds dead.</summary>
    [Id(1)]
    public SiloAddress[] Dead { get; set; } = [];
}
