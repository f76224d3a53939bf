using BenchmarkDotNet.Attributes;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Flood: one producer sends 2,000,000 messages as fast as it can to one consumer through a bounded mailbox of 1,000
/// (backpressure: the producer parks while it is full) or an unbounded one; the baseline is a bounded
/// <see cref="System.Threading.Channels.Channel{T}"/> of 1,000 with async/await. Allocation per message shows what
/// waiting for room costs.
/// </summary>
public class FloodBenchmarks : WorkerSuite
{
    private const int Messages = 2_000_000;

    /// <summary>Gets or sets the mailbox's capacity; 0 is unbounded (the producer sends without waiting).</summary>
    [Params(1000, 0)]
    public int Capacity { get; set; }

    /// <summary>The baseline: async/await with a bounded channel of 1,000 (unbounded when <see cref="Capacity"/> is 0).</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long Tasks() => Verify.Result("Flood", Flood.Channels(Messages, Capacity).InOrder, Messages);

    /// <summary>Green threads: the producer yields <see cref="Mailbox{T}.Put"/> (or sends, when unbounded).</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ThreadIterators() => Verify.Result("Flood", Flood.GreenThreads(Scheduler, Messages, Capacity).InOrder, Messages);
}
