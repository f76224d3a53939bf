using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>CountingActor: 3,000,000 increments, then a request for the total.</summary>
public class CountingActorBenchmarks : WorkerSuite
{
    private const int Messages = 3_000_000;

    /// <summary>The baseline: async/await with one unbounded channel and one Task per actor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long Tasks() => Verify.Result("CountingActor", Workloads.CountingActor.Tasks(Messages), Workloads.CountingActor.Expected(Messages));

    /// <summary>Green threads and mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ThreadIterators() => Verify.Result("CountingActor", Workloads.CountingActor.GreenThreads(Scheduler, Messages), Workloads.CountingActor.Expected(Messages));

    /// <summary>Proto.Actor: an actor per green thread, default dispatcher and mailbox (see Peers/ProtoActor).</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ProtoActor() => Verify.Result("CountingActor", ProtoActorPeer.CountingActor(Messages), Workloads.CountingActor.Expected(Messages));

    /// <summary>Akka.NET: an actor per green thread, default dispatcher and mailbox (see Peers/AkkaNet).</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long Akka() => Verify.Result("CountingActor", AkkaPeer.CountingActor(Messages), Workloads.CountingActor.Expected(Messages));
}
