using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// One of PingPong's two players: answers each ball with the counter one less, to the sender, until the ball
/// carries 1, which it reports as the run's answer. Like the green player it knows how many balls it will receive,
/// and stops after the last.
/// </summary>
internal sealed class PingPongPlayer : UntypedActor
{
    private readonly IActorRef? _opponent;

    private readonly long _receives;

    private readonly long _serve;

    private long _received;

    /// <summary>Initializes a new instance of the <see cref="PingPongPlayer"/> class.</summary>
    /// <param name="opponent">Whom to serve to on <see cref="Start"/>, or null for the player that only answers.</param>
    /// <param name="receives">Balls this player receives: half the messages, the answering player taking the odd one.</param>
    /// <param name="serve">The counter of the first ball: the number of messages.</param>
    public PingPongPlayer(IActorRef? opponent, long receives, long serve)
    {
        _opponent = opponent;
        _receives = receives;
        _serve = serve;
    }

    /// <summary>The props of a player.</summary>
    public static Props Props(IActorRef? opponent, long receives, long serve) =>
        Akka.Actor.Props.Create(() => new PingPongPlayer(opponent, receives, serve));

    protected override void OnReceive(object message)
    {
        switch (message)
        {
            case Token ball:
                if (ball.Value == 1)
                {
                    Context.Parent.Tell(new Result(ball.Value));
                }
                else
                {
                    Sender.Tell(new Token(ball.Value - 1));
                }

                if (++_received == _receives)
                {
                    Context.Stop(Self);
                }

                break;
            case Start when _opponent is not null:
                _opponent.Tell(new Token(_serve));
                if (_receives == 0)
                {
                    Context.Stop(Self);
                }

                break;
            default:
                Unhandled(message);
                break;
        }
    }
}
