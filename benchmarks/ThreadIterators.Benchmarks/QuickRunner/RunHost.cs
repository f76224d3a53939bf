using System;
using ThreadIterators.Benchmarks.Peers.AkkaNet;
using ThreadIterators.Benchmarks.Peers.ProtoActor;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>
/// What one measured configuration runs on, made before its warm-up and kept for every run: the scheduler of the
/// green threads, and the actor systems of the peer libraries, each made on first use.
/// </summary>
internal sealed class RunHost : IDisposable
{
    private readonly Scheduler? _scheduler;

    private ProtoActorPeer? _protoActor;

    private AkkaPeer? _akka;

    /// <summary>Initializes a new instance of the <see cref="RunHost"/> class.</summary>
    /// <param name="scheduler">The scheduler, owned from here on, for an implementation on one; otherwise null.</param>
    public RunHost(Scheduler? scheduler) => _scheduler = scheduler;

    /// <summary>Gets the scheduler; only implementations that run on one may ask.</summary>
    public Scheduler Scheduler => _scheduler ?? throw new InvalidOperationException("this implementation does not run on a scheduler.");

    /// <summary>Gets the Proto.Actor system, started on first use.</summary>
    public ProtoActorPeer ProtoActor => _protoActor ??= new ProtoActorPeer();

    /// <summary>Gets the Akka.NET actor system, started on first use.</summary>
    public AkkaPeer Akka => _akka ??= new AkkaPeer();

    public void Dispose()
    {
        _scheduler?.Dispose();
        _protoActor?.Dispose();
        _akka?.Dispose();
    }
}
