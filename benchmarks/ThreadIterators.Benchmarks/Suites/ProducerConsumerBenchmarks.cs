using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>ProducerConsumer: two producers, 1,500,000 messages each, one consumer.</summary>
public class ProducerConsumerBenchmarks : WorkerSuite
{
    private const int Messages = 3_000_000;

    /// <summary>The baseline: async/await with one unbounded channel and one Task per actor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long Tasks() => Verify.Result("ProducerConsumer", Workloads.ProducerConsumer.Tasks(Messages), Workloads.ProducerConsumer.Expected(Messages));

    /// <summary>Green threads and mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ThreadIterators() => Verify.Result("ProducerConsumer", Workloads.ProducerConsumer.GreenThreads(Scheduler, Messages), Workloads.ProducerConsumer.Expected(Messages));

    /// <summary>Proto.Actor: an actor per green thread, default dispatcher and mailbox (see Peers/ProtoActor).</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ProtoActor() => Verify.Result("ProducerConsumer", ProtoActorPeer.ProducerConsumer(Messages), Workloads.ProducerConsumer.Expected(Messages));

    /// <summary>Akka.NET: an actor per green thread, default dispatcher and mailbox (see Peers/AkkaNet).</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long Akka() => Verify.Result("ProducerConsumer", AkkaPeer.ProducerConsumer(Messages), Workloads.ProducerConsumer.Expected(Messages));
}
