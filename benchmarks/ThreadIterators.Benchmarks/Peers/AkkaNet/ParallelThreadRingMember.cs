using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// A member of ParallelThreadRing: passes every token on, one less, counting its hops, until the token has none left
/// and retires here. The member that retires the last token starts the stop marker round; each member adds its hops
/// to the tally as it passes the marker on and stops.
/// </summary>
/// <remarks>
/// As in <see cref="ThreadRingMember"/>, the member that starts the round stays until the marker comes back, then
/// reports the total, so the last hop reaches a live actor and the answer is read once every member has added its hops.
/// </remarks>
internal sealed class ParallelThreadRingMember : UntypedActor
{
    private readonly IActorRef[] _ring;

    private readonly int _index;

    private readonly ParallelRingTally _tally;

    private long _hops;

    /// <summary>Set once this member has started the stop round: the next message is the marker coming back.</summary>
    private bool _closing;

    /// <summary>Initializes a new instance of the <see cref="ParallelThreadRingMember"/> class.</summary>
    /// <param name="ring">Every member, in ring order, filled by the driver before it sends the first token.</param>
    /// <param name="index">This member's place.</param>
    /// <param name="tally">The run's shared counts.</param>
    public ParallelThreadRingMember(IActorRef[] ring, int index, ParallelRingTally tally)
    {
        _ring = ring;
        _index = index;
        _tally = tally;
    }

    /// <summary>The props of member <paramref name="index"/> of <paramref name="ring"/>.</summary>
    public static Props Props(IActorRef[] ring, int index, ParallelRingTally tally) =>
        Akka.Actor.Props.Create(() => new ParallelThreadRingMember(ring, index, tally));

    protected override void OnReceive(object message)
    {
        if (message is not Token token)
        {
            Unhandled(message);
            return;
        }

        if (_closing)
        {
            Context.Parent.Tell(new Result(_tally.Hops));
            Context.Stop(Self);
            return;
        }

        var next = _ring[(_index + 1) % _ring.Length];
        if (token.Value > 0)
        {
            _hops++;
            next.Tell(new Token(token.Value - 1));
            return;
        }

        if (token.Value == 0 && !_tally.Retire())
        {
            // The token retired here; others are still going round.
            return;
        }

        // The last token retired here, or the stop marker arrived.
        _tally.Add(_hops);
        next.Tell(Token.Stop);
        if (token.Value == 0)
        {
            _closing = true;
        }
        else
        {
            Context.Stop(Self);
        }
    }
}
