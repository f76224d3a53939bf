using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>Skynet: 1,000,000 leaves, 1,111,111 threads; per-operation figures are per thread.</summary>
public class SkynetBenchmarks : WorkerSuite
{
    private const int Leaves = 1_000_000;
    private const int Threads = 1_111_111;

    /// <summary>The baseline: async/await with one unbounded channel and one Task per actor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Threads)]
    public long Tasks() => Verify.Result("Skynet", Workloads.Skynet.Tasks(Leaves), Workloads.Skynet.Expected(Leaves));

    /// <summary>Green threads and mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Threads)]
    public long ThreadIterators() => Verify.Result("Skynet", Workloads.Skynet.GreenThreads(Scheduler, Leaves), Workloads.Skynet.Expected(Leaves));

    /// <summary>Proto.Actor: an actor per green thread, default dispatcher and mailbox (see Peers/ProtoActor).</summary>
    [Benchmark(OperationsPerInvoke = Threads)]
    public long ProtoActor() => Verify.Result("Skynet", ProtoActorPeer.Skynet(Leaves), Workloads.Skynet.Expected(Leaves));

    /// <summary>Akka.NET: an actor per green thread, default dispatcher and mailbox (see Peers/AkkaNet).</summary>
    [Benchmark(OperationsPerInvoke = Threads)]
    public long Akka() => Verify.Result("Skynet", AkkaPeer.Skynet(Leaves), Workloads.Skynet.Expected(Leaves));
}
