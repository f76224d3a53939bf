using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>A ring member other than the head: forwards the token to the next member.</summary>
internal sealed class RingMemberActor : ReceiveActor
{
    private IActorRef _next = ActorRefs.Nobody;

    /// <summary>Initializes a new instance of the <see cref="RingMemberActor"/> class.</summary>
    public RingMemberActor()
    {
        Receive<AkkaMessages.SetNext>(set =>
        {
            _next = set.Next;
            Sender.Tell(new AkkaMessages.NextSet());
        });
        Receive<AkkaMessages.RingToken>(token => _next.Tell(token, Self));
    }
}
