using System;
using System.Runtime.ExceptionServices;
using System.Threading.Tasks;
using Proto;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One Proto.Actor (package Proto.Actor 1.8.0) actor system, made once and reused for every run, as a
/// <see cref="Scheduler"/> is, so a run measures the workload and not the system's start.
/// </summary>
/// <remarks>
/// <para>
/// Every actor uses the library's defaults: <see cref="Props"/> gives the default mailbox (<c>UnboundedMailbox</c>: a
/// <c>ConcurrentQueue&lt;object&gt;</c> for user messages) and <c>Dispatchers.DefaultDispatcher</c>, whose mailboxes
/// queue themselves on the .NET thread pool as <see cref="System.Threading.IThreadPoolWorkItem"/>s and handle up to
/// 300 messages a turn. That dispatcher is kept, not replaced by a <c>ThreadPoolDispatcher</c> with another
/// throughput: the mailbox queues itself straight on the pool only for the default instance, and goes through
/// <c>Task.Run</c> (a closure and a Task per turn) for any other. So the runner's thread pool limit is the actors'
/// worker count.
/// </para>
/// <para>
/// Each run spawns one run actor from the root; the run actor spawns the workload's actors as its children, starts
/// the workload, and the actor that computes the result completes a <see cref="TaskCompletionSource{TResult}"/> that
/// the calling thread waits on. The run then stops the run actor and waits for it to terminate, which in
/// Proto.Actor happens only after all its children have terminated, so no run leaves an actor behind.
/// </para>
/// </remarks>
internal sealed class ProtoActorPeer : IDisposable
{
    /// <summary>Long enough for the largest run on one slow worker; a hang becomes an error naming the workload.</summary>
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10);

    private readonly ActorSystem _system;

    /// <summary>
    /// Starts the actor system. Metrics and supervision logging are off (they are by default; said here so a change of
    /// default cannot turn them on); the library logs through a null logger factory unless one is set, and none is.
    /// </summary>
    public ProtoActorPeer()
    {
        var config = ActorSystemConfig.Setup()
            .WithMetrics(false)
            .WithDeveloperSupervisionLogging(false)
            .WithDeveloperThreadPoolStatsLogging(false);
        _system = new ActorSystem(config);
    }

    /// <summary>Gets the number of processes the system has registered, so tests can see that runs leave none behind.</summary>
    internal int ProcessCount => _system.ProcessRegistry.ProcessCount;

    /// <summary>The ring: <paramref name="forwarders"/> forwarders in a line and a drain; <see cref="Workloads.Ring.Expected"/>.</summary>
    public long Ring(int forwarders, int messages) =>
        Run(nameof(Ring), done => new RingRun(forwarders, messages, done));

    /// <summary>One token round a ring of 503 actors; <see cref="Workloads.ThreadRing.Expected"/>.</summary>
    public long ThreadRing(long hops) =>
        Run(nameof(ThreadRing), done => new ThreadRingRun(hops, done));

    /// <summary>503 tokens round a ring of 503 actors at once; <see cref="Workloads.ParallelThreadRing.Expected"/>.</summary>
    public long ParallelThreadRing(long hops) =>
        Run(nameof(ParallelThreadRing), done => new ParallelRingRun(hops, done));

    /// <summary>Two actors bounce a counter; <see cref="Workloads.PingPong.Expected"/>.</summary>
    public long PingPong(long messages) =>
        Run(nameof(PingPong), done => new PingPongRun(messages, done));

    /// <summary>A sender actor counts up a counter actor and asks for the total; <see cref="Workloads.CountingActor.Expected"/>.</summary>
    public long CountingActor(long messages) =>
        Run(nameof(CountingActor), done => new CountingRun(messages, done));

    /// <summary>Two producer actors and a consumer actor; <see cref="Workloads.ProducerConsumer.Expected"/>.</summary>
    public long ProducerConsumer(long messages) =>
        Run(nameof(ProducerConsumer), done => new ProducerConsumerRun(messages, done));

    /// <summary>A tree of actors summing leaf ordinals; <see cref="Workloads.Skynet.Expected"/>.</summary>
    public long Skynet(long leaves) =>
        Run(nameof(Skynet), done => new SkynetRun(leaves, done));

    /// <summary>Actors touching their own state and passing messages at random; <see cref="Workloads.CacheAffinity.Expected"/>.</summary>
    public long CacheAffinity(ActorStates actors, int accesses, long messages)
    {
        ArgumentNullException.ThrowIfNull(actors);
        return Run(nameof(CacheAffinity), done => new CacheAffinityRun(actors, accesses, messages, done));
    }

    /// <summary>
    /// Shuts the system down. Every run has already stopped its actors; this ends the system's own background work (its
    /// thread pool latency probe) and refuses further messages.
    /// </summary>
    public void Dispose()
    {
        if (!_system.DisposeAsync().AsTask().Wait(Timeout))
        {
            throw new TimeoutException($"The Proto.Actor system did not shut down within {Timeout.TotalMinutes:F0} minutes.");
        }
    }

    /// <summary>
    /// Spawns a run actor, waits for the result it or one of its children reports, then stops it and waits until it and
    /// all its children have terminated. A child that throws fails the run at once through the run actor's supervisor
    /// strategy, rather than being restarted into a run that would never finish.
    /// </summary>
    private long Run(string workload, Func<TaskCompletionSource<long>, IActor> run)
    {
        var done = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        var failed = new OneForOneStrategy(
            (_, reason) =>
            {
                done.TrySetException(reason);
                return SupervisorDirective.Stop;
            },
            0,
            null);
        var props = Props.FromProducer(() => run(done)).WithChildSupervisorStrategy(failed);
        var pid = _system.Root.Spawn(props);
        try
        {
            Wait(done.Task, workload, "finish");
        }
        catch
        {
            // Stop what is left without waiting again, so the first failure is the one reported.
            _system.Root.Stop(pid);
            throw;
        }

        Wait(_system.Root.StopAsync(pid), workload, "stop its actors");
        return done.Task.Result;
    }

    private static void Wait(Task task, string workload, string what)
    {
        try
        {
            if (!task.Wait(Timeout))
            {
                throw new TimeoutException($"Proto.Actor {workload} did not {what} within {Timeout.TotalMinutes:F0} minutes.");
            }
        }
        catch (AggregateException e) when (e.InnerExceptions.Count == 1)
        {
            ExceptionDispatchInfo.Capture(e.InnerExceptions[0]).Throw();
            throw;
        }
    }
}
