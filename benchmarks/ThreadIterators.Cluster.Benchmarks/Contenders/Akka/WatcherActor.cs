using System.Diagnostics;
using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// One of the node-down workload's watchers on the first node: watches the victim on the third node with
/// <c>Context.Watch</c>, makes sure the victim is there with an <see cref="Identify"/> round trip, and reports to the
/// tally when it is watching and when it hears, through <see cref="Terminated"/>, that the victim is gone.
/// </summary>
internal sealed class WatcherActor : ReceiveActor
{
    private readonly IActorRef _victim;
    private readonly int _index;

    /// <summary>Initializes a new instance of the <see cref="WatcherActor"/> class.</summary>
    /// <param name="victim">The actor on the third node to watch.</param>
    /// <param name="index">This watcher's number, from 0.</param>
    /// <param name="tally">Where it reports.</param>
    public WatcherActor(IActorRef victim, int index, NodeDownTally tally)
    {
        _victim = victim;
        _index = index;
        Receive<ActorIdentity>(identity => tally.Watching(identity.Subject is not null));
        Receive<Terminated>(terminated => tally.Heard(_index, Stopwatch.GetTimestamp(), terminated.AddressTerminated));
    }

    /// <inheritdoc/>
    protected override void PreStart()
    {
        Context.Watch(_victim);
        _victim.Tell(new Identify(_index), Self);
    }
}
