using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>ThreadRing: 503 threads, one token, 1,000,000 hops (OS threads: 20,000 hops).</summary>
public class ThreadRingBenchmarks : WorkerSuite
{
    private const int Hops = 1_000_000;
    private const int OsThreadHops = 20_000;

    /// <summary>The baseline: async/await with one unbounded channel and one Task per actor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Hops)]
    public long Tasks() => Verify.Result("ThreadRing", Workloads.ThreadRing.Tasks(Hops), Workloads.ThreadRing.Expected(Hops));

    /// <summary>Green threads and mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long ThreadIterators() => Verify.Result("ThreadRing", Workloads.ThreadRing.GreenThreads(Scheduler, Hops), Workloads.ThreadRing.Expected(Hops));

    /// <summary>503 OS threads handing the token on with semaphores, at a fiftieth of the hops.</summary>
    [Benchmark(OperationsPerInvoke = OsThreadHops)]
    public long OsThreads() => Verify.Result("ThreadRing", Workloads.ThreadRing.OsThreads(OsThreadHops), Workloads.ThreadRing.Expected(OsThreadHops));

    /// <summary>Proto.Actor: an actor per green thread, default dispatcher and mailbox (see Peers/ProtoActor).</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long ProtoActor() => Verify.Result("ThreadRing", ProtoActorPeer.ThreadRing(Hops), Workloads.ThreadRing.Expected(Hops));

    /// <summary>Akka.NET: an actor per green thread, default dispatcher and mailbox (see Peers/AkkaNet).</summary>
    [Benchmark(OperationsPerInvoke = Hops)]
    public long Akka() => Verify.Result("ThreadRing", AkkaPeer.ThreadRing(Hops), Workloads.ThreadRing.Expected(Hops));
}
