using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>The ring: 10,000 forwarders, 100 messages (1,000,000 hops).</summary>
public class RingBenchmarks : WorkerSuite
{
    private const int N = 10_000;
    private const int M = 100;
    private const int Hops = N * M;

    /// <summary>The baseline: async/await with one unbounded channel and one Task per actor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Hops)]
    public long Tasks() => Verify.Result("Ring", Workloads.Ring.Tasks(N, M), Workloads.Ring.Expected(M));

    /// <summary>Green threads and mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long ThreadIterators() => Verify.Result("Ring", Workloads.Ring.GreenThreads(Scheduler, N, M), Workloads.Ring.Expected(M));

    /// <summary>Proto.Actor: an actor per green thread, default dispatcher and mailbox (see Peers/ProtoActor).</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long ProtoActor() => Verify.Result("Ring", ProtoActorPeer.Ring(N, M), Workloads.Ring.Expected(M));

    /// <summary>Akka.NET: an actor per green thread, default dispatcher and mailbox (see Peers/AkkaNet).</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long Akka() => Verify.Result("Ring", AkkaPeer.Ring(N, M), Workloads.Ring.Expected(M));
}
