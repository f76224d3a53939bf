using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>ParallelThreadRing: 503 threads, 503 tokens, 1,006,000 hops in all.</summary>
public class ParallelThreadRingBenchmarks : WorkerSuite
{
    private const int Hops = 503 * 2_000;

    /// <summary>The baseline: async/await with one unbounded channel and one Task per actor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Hops)]
    public long Tasks() => Verify.Result("ParallelThreadRing", Workloads.ParallelThreadRing.Tasks(Hops), Workloads.ParallelThreadRing.Expected(Hops));

    /// <summary>Green threads and mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long ThreadIterators() => Verify.Result("ParallelThreadRing", Workloads.ParallelThreadRing.GreenThreads(Scheduler, Hops), Workloads.ParallelThreadRing.Expected(Hops));

    /// <summary>Proto.Actor: an actor per green thread, default dispatcher and mailbox (see Peers/ProtoActor).</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long ProtoActor() => Verify.Result("ParallelThreadRing", ProtoActorPeer.ParallelThreadRing(Hops), Workloads.ParallelThreadRing.Expected(Hops));

    /// <summary>Akka.NET: an actor per green thread, default dispatcher and mailbox (see Peers/AkkaNet).</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long Akka() => Verify.Result("ParallelThreadRing", AkkaPeer.ParallelThreadRing(Hops), Workloads.ParallelThreadRing.Expected(Hops));
}
