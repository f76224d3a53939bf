using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// A member of ThreadRing's 503: passes the token on, one less; the member that receives 0 holds it last, and starts
/// the stop marker round, which every other member passes on once before it stops.
/// </summary>
/// <remarks>
/// The green winner ends at once, and the marker's last hop lands in its dead mailbox. Here the winner stays until
/// the marker comes back and only then reports its id and stops, so that hop reaches a live actor rather than Akka.NET's
/// dead letters, and the run's answer is given once the round is over, when the green run's threads have all ended.
/// The same number of messages either way.
/// </remarks>
internal sealed class ThreadRingMember : UntypedActor
{
    private readonly IActorRef[] _ring;

    private readonly int _index;

    /// <summary>Set by the winner once it has started the stop round: the next message is the marker coming back.</summary>
    private bool _winner;

    /// <summary>Initializes a new instance of the <see cref="ThreadRingMember"/> class.</summary>
    /// <param name="ring">Every member, in ring order. The driver fills it as it creates them, before it sends the token, and the send publishes it.</param>
    /// <param name="index">This member's place; its id is one more.</param>
    public ThreadRingMember(IActorRef[] ring, int index)
    {
        _ring = ring;
        _index = index;
    }

    /// <summary>The props of member <paramref name="index"/> of <paramref name="ring"/>.</summary>
    public static Props Props(IActorRef[] ring, int index) => Akka.Actor.Props.Create(() => new ThreadRingMember(ring, index));

    protected override void OnReceive(object message)
    {
        if (message is not Token token)
        {
            Unhandled(message);
            return;
        }

        if (_winner)
        {
            Context.Parent.Tell(new Result(_index + 1));
            Context.Stop(Self);
            return;
        }

        var next = _ring[(_index + 1) % _ring.Length];
        if (token.Value > 0)
        {
            next.Tell(new Token(token.Value - 1));
            return;
        }

        next.Tell(Token.Stop);
        if (token.Value == 0)
        {
            _winner = true;
        }
        else
        {
            Context.Stop(Self);
        }
    }
}
