using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>How a process ended, as its grain tells the silos that monitor it.</summary>
[GenerateSerializer]
[Alias("ThreadIterators.Orleans.ProcessExitInfo")]
internal sealed class ProcessExitInfo
{
    [Id(0)]
    public ProcessExitReason Reason { get; set; }

    [Id(1)]
    public string? Detail { get; set; }

    [Id(2)]
    public string? Silo { get; set; }
}
