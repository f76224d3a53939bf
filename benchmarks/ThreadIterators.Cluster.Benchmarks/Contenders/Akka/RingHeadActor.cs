using System.Threading.Tasks;
using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// The ring's first member, on the first node: sends the token on its first lap when told to start, counts the laps
/// as the token comes back, sends it round again until the last lap is done, and then completes.
/// </summary>
internal sealed class RingHeadActor : ReceiveActor
{
    private readonly int _laps;
    private readonly TaskCompletionSource _done;
    private IActorRef _next = ActorRefs.Nobody;

    /// <summary>Initializes a new instance of the <see cref="RingHeadActor"/> class.</summary>
    /// <param name="laps">How many laps the token goes.</param>
    /// <param name="done">Completed once the token is back from its last lap.</param>
    public RingHeadActor(int laps, TaskCompletionSource done)
    {
        _laps = laps;
        _done = done;
        Receive<AkkaMessages.SetNext>(set =>
        {
            _next = set.Next;
            Sender.Tell(new AkkaMessages.NextSet());
        });
        Receive<AkkaMessages.StartRing>(_ => Lap(0));
        Receive<AkkaMessages.RingToken>(token => Lap(token.Lap + 1));
    }

    private void Lap(int lap)
    {
        if (lap == _laps)
        {
            _done.TrySetResult();
        }
        else
        {
            _next.Tell(new AkkaMessages.RingToken(lap), Self);
        }
    }
}
