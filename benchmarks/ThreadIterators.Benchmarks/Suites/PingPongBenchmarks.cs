using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>PingPong: 1,000,000 messages (500,000 round trips); per-operation figures are per message.</summary>
public class PingPongBenchmarks : WorkerSuite
{
    private const int Messages = 1_000_000;

    /// <summary>The baseline: async/await with one unbounded channel and one Task per actor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long Tasks() => Verify.Result("PingPong", Workloads.PingPong.Tasks(Messages), Workloads.PingPong.Expected(Messages));

    /// <summary>Green threads and mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ThreadIterators() => Verify.Result("PingPong", Workloads.PingPong.GreenThreads(Scheduler, Messages), Workloads.PingPong.Expected(Messages));

    /// <summary>Proto.Actor: an actor per green thread, default dispatcher and mailbox (see Peers/ProtoActor).</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ProtoActor() => Verify.Result("PingPong", ProtoActorPeer.PingPong(Messages), Workloads.PingPong.Expected(Messages));

    /// <summary>Akka.NET: an actor per green thread, default dispatcher and mailbox (see Peers/AkkaNet).</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long Akka() => Verify.Result("PingPong", AkkaPeer.PingPong(Messages), Workloads.PingPong.Expected(Messages));
}
