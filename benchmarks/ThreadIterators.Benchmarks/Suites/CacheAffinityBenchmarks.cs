using System.Collections.Generic;
using System.Linq;
using BenchmarkDotNet.Attributes;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The cache-affinity grid: 100,000 messages among A actors with S bytes of state each, K random accesses per
/// message, on 2 workers under each scheduling policy, against the thread pool running one work item per message.
/// 36 cells of 5 benchmarks take hours, so pick cells with the environment variable <c>CACHEAFFINITY_CELLS</c>, as
/// actors/bytes/accesses separated by commas: <c>CACHEAFFINITY_CELLS=24/32000/100,8000/64/20 dotnet run -c Release
/// -- --filter '*CacheAffinity*'</c>. The policy comparison (<c>-- policies</c>) runs the whole grid in fresh
/// processes in well under an hour.
/// </summary>
[Config(typeof(SuiteConfig))]
public class CacheAffinityBenchmarks
{
    private const int Messages = 100_000;

    private static readonly int[] s_actors = [4, 24, 240, 8000];

    private static readonly long[] s_states = [64, 4_000, 32_000, 320_000, 3_200_000];

    private static readonly int[] s_accesses = [20, 100];

    private readonly Dictionary<SchedulingPolicy, Scheduler> _schedulers = [];

    private ActorStates _states = null!;
    private Peers.ProtoActor.ProtoActorPeer? _protoActor;
    private Peers.AkkaNet.AkkaPeer? _akka;

    /// <summary>Gets the cells named by <c>CACHEAFFINITY_CELLS</c>, or else every cell of the grid whose state adds up to at most 2 GB.</summary>
    public static IEnumerable<CacheCell> Cells =>
        System.Environment.GetEnvironmentVariable("CACHEAFFINITY_CELLS") is { Length: > 0 } chosen
            ? chosen.Split(',').Select(CacheCell.Parse)
            : from a in s_actors
              from s in s_states
              where a * s <= 2_000_000_000
              from k in s_accesses
              select new CacheCell(a, s, k);

    /// <summary>Gets or sets the cell measured.</summary>
    [ParamsSource(nameof(Cells))]
    public CacheCell Cell { get; set; } = null!;

    [GlobalSetup]
    public void Setup()
    {
        _states = ActorStates.For(Cell.Actors, Cell.State);
        foreach (var policy in System.Enum.GetValues<SchedulingPolicy>())
        {
            _schedulers[policy] = new Scheduler(new SchedulerOptions { WorkerCount = 2, Policy = policy });
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        foreach (var scheduler in _schedulers.Values)
        {
            scheduler.Dispose();
        }

        _protoActor?.Dispose();
        _akka?.Dispose();
    }

    /// <summary>The baseline: one thread-pool work item per message, an actor's next queued when its previous one ends.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long ThreadPool() => Verify.Result("CacheAffinity", CacheAffinity.ThreadPool(_states, Cell.Accesses, Messages), Messages);

    [Benchmark(OperationsPerInvoke = Messages)]
    public long WorkStealing() => Run(SchedulingPolicy.WorkStealing);

    [Benchmark(OperationsPerInvoke = Messages)]
    public long SoftAffinity() => Run(SchedulingPolicy.SoftAffinity);

    [Benchmark(OperationsPerInvoke = Messages)]
    public long Dedicated() => Run(SchedulingPolicy.Dedicated);

    [Benchmark(OperationsPerInvoke = Messages)]
    public long SharedQueue() => Run(SchedulingPolicy.SharedQueue);

    /// <summary>Proto.Actor: an actor per state, default dispatcher and mailbox; its system starts on the first, unmeasured, call.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ProtoActor() => Verify.Result("CacheAffinity", (_protoActor ??= new()).CacheAffinity(_states, Cell.Accesses, Messages), Messages);

    /// <summary>Akka.NET: an actor per state, default dispatcher and mailbox; its system starts on the first, unmeasured, call.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long Akka() => Verify.Result("CacheAffinity", (_akka ??= new()).CacheAffinity(_states, Cell.Accesses, Messages), Messages);

    private long Run(SchedulingPolicy policy) =>
        Verify.Result("CacheAffinity", CacheAffinity.GreenThreads(_schedulers[policy], _states, Cell.Accesses, Messages), Messages);
}
