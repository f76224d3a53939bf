namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>What a <see cref="Flood"/> run saw.</summary>
/// <param name="InOrder">Messages the consumer received in the order they were sent.</param>
/// <param name="PeakHeapGrowthBytes">The most the managed heap (garbage not yet collected included) grew above its size before the run, sampled every 2^20 messages.</param>
public sealed record FloodResult(long InOrder, long PeakHeapGrowthBytes);
