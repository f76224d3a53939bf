using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// A forwarder of the ring: passes each message to the next actor of the line, and stops after passing the stop
/// marker on, as the green forwarder ends. It forwards the message object it received: messages are immutable, so
/// a hop allocates no message.
/// </summary>
internal sealed class RingForwarder : UntypedActor
{
    private readonly IActorRef _next;

    /// <summary>Initializes a new instance of the <see cref="RingForwarder"/> class.</summary>
    /// <param name="next">The next forwarder, or the drain; created first, since the line is built from its end.</param>
    public RingForwarder(IActorRef next) => _next = next;

    /// <summary>The props of a forwarder to <paramref name="next"/>.</summary>
    public static Props Props(IActorRef next) => Akka.Actor.Props.Create(() => new RingForwarder(next));

    protected override void OnReceive(object message)
    {
        if (message is not Token token)
        {
            Unhandled(message);
            return;
        }

        _next.Tell(token);
        if (token.Value < 0)
        {
            Context.Stop(Self);
        }
    }
}
