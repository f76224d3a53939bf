using Akka.Actor;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// An actor of the cache-affinity experiment: for each message, K random reads and writes of its own state, then the
/// message goes on, one hop less, to an actor picked at random, or retires. The actor that retires the last message
/// tells every actor to stop; each reports the messages it handled to the driver and stops, as the green actor ends.
/// </summary>
/// <remarks>
/// The state, the random streams and their seeds, the touch and the pick are the workload's own
/// (<see cref="CacheAffinity.Touch"/>, <see cref="CacheAffinity.Pick"/>, <see cref="ActorStates.Seed"/>), and the
/// retirement count is the same <see cref="MessageCount"/>, so the run does exactly the work of the others.
/// </remarks>
internal sealed class CacheAffinityActor : UntypedActor
{
    private readonly IActorRef[] _actors;

    private readonly long[] _state;

    private readonly int _accesses;

    private readonly MessageCount _run;

    private ulong _random;

    private long _handled;

    /// <summary>Initializes a new instance of the <see cref="CacheAffinityActor"/> class.</summary>
    /// <param name="actors">Every actor of the run, filled by the driver before it sends the first message.</param>
    /// <param name="index">This actor's place, which picks its random seed.</param>
    /// <param name="state">This actor's private state.</param>
    /// <param name="accesses">Reads and writes per message.</param>
    /// <param name="run">The messages still in flight.</param>
    public CacheAffinityActor(IActorRef[] actors, int index, long[] state, int accesses, MessageCount run)
    {
        _actors = actors;
        _state = state;
        _accesses = accesses;
        _run = run;
        _random = ActorStates.Seed(index);
    }

    /// <summary>The props of actor <paramref name="index"/>.</summary>
    public static Props Props(IActorRef[] actors, int index, long[] state, int accesses, MessageCount run) =>
        Akka.Actor.Props.Create(() => new CacheAffinityActor(actors, index, state, accesses, run));

    protected override void OnReceive(object message)
    {
        if (message is not Token token)
        {
            Unhandled(message);
            return;
        }

        var hops = token.Value;
        if (hops < 0)
        {
            Context.Parent.Tell(new Result(_handled));
            Context.Stop(Self);
            return;
        }

        CacheAffinity.Touch(_state, ref _random, _accesses);
        _handled++;
        if (hops > 1)
        {
            _actors[CacheAffinity.Pick(ref _random, _actors.Length)].Tell(new Token(hops - 1));
        }
        else if (_run.Retire())
        {
            foreach (var other in _actors)
            {
                other.Tell(Token.Stop);
            }
        }
    }
}
