using BenchmarkDotNet.Attributes;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Restarting a crashed child (<see cref="Restarts"/>): per-operation figures are per restart, so restarts per second
/// is one second over the mean. The baseline crashes, spawns and joins the same children with no supervisor, so the
/// ratio is what supervision adds.
/// </summary>
public class RestartBenchmarks : WorkerSuite
{
    private const int Count = 20_000;

    /// <summary>The baseline: crash, spawn and join, no supervisor.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public long Unsupervised() => Verify.Result("Restarts.Unsupervised", Restarts.Unsupervised(Scheduler, Count), Restarts.Expected(Count));

    /// <summary>A supervisor restarts a child that throws.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public long Supervised() => Verify.Result("Restarts.Supervised", Restarts.Supervised(Scheduler, Count, crash: true), Restarts.Expected(Count));

    /// <summary>A supervisor restarts a permanent child that returns: the restart without an exception.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public long SupervisedReturning() => Verify.Result("Restarts.SupervisedReturning", Restarts.Supervised(Scheduler, Count, crash: false), Restarts.Expected(Count));
}
