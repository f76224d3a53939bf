using BenchmarkDotNet.Attributes;
using ThreadIterators.Benchmarks.Peers.AkkaNet;
using ThreadIterators.Benchmarks.Peers.ProtoActor;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Base of every suite: the worker-count and scheduling-policy parameters and one scheduler per combination, so
/// scheduler start-up is not measured. The Task baselines and the actor libraries ignore both and run on the thread
/// pool as it comes (the quick runner's <c>run</c> limits the pool to the worker count), so each table shows them once
/// per combination, beside the ratio's denominator.
/// </summary>
[Config(typeof(SuiteConfig))]
public abstract class WorkerSuite
{
    /// <summary>Gets or sets the OS threads the green threads run on.</summary>
    [Params(1, 2)]
    public int Workers { get; set; }

    /// <summary>Gets or sets where the scheduler runs ready threads.</summary>
    [ParamsAllValues]
    public SchedulingPolicy Policy { get; set; }

    private ProtoActorPeer? _protoActor;

    private AkkaPeer? _akka;

    /// <summary>Gets the scheduler of the green-thread runs.</summary>
    protected Scheduler Scheduler { get; private set; } = null!;

    /// <summary>
    /// Gets the Proto.Actor system, started by the first call (which BenchmarkDotNet does not measure), so that the
    /// processes of the other benchmarks run without its background threads.
    /// </summary>
    private protected ProtoActorPeer ProtoActorPeer => _protoActor ??= new ProtoActorPeer();

    /// <summary>Gets the Akka.NET actor system, started as <see cref="ProtoActorPeer"/> is.</summary>
    private protected AkkaPeer AkkaPeer => _akka ??= new AkkaPeer();

    [GlobalSetup]
    public void Setup() => Scheduler = new Scheduler(new SchedulerOptions { WorkerCount = Workers, Policy = Policy });

    [GlobalCleanup]
    public void Cleanup()
    {
        Scheduler.Dispose();
        _protoActor?.Dispose();
        _akka?.Dispose();
    }
}
