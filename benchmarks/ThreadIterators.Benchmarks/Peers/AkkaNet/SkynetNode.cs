using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// A Skynet node: a leaf answers its ordinal to its parent; any other node creates ten children, sums their answers
/// and answers the sum to its parent. Each node stops once it has answered, as the green node ends.
/// </summary>
internal sealed class SkynetNode : UntypedActor
{
    /// <summary>Children per parent.</summary>
    private const int Fanout = 10;

    /// <summary>Children that fail fail their parent, up to the driver, so a fault ends the run at once.</summary>
    private static readonly SupervisorStrategy Escalating = new OneForOneStrategy(_ => Directive.Escalate);

    private int _pending;

    private long _sum;

    /// <summary>The props of every node, made once: props are immutable, and the node takes no arguments.</summary>
    public static Props Props { get; } = Akka.Actor.Props.Create<SkynetNode>();

    protected override void OnReceive(object message)
    {
        switch (message)
        {
            case SkynetStart start when start.Size == 1:
                Answer(start.Ordinal);
                break;
            case SkynetStart start:
                var childSize = start.Size / Fanout;
                _pending = Fanout;
                for (var i = 0; i < Fanout; i++)
                {
                    Context.ActorOf(Props).Tell(new SkynetStart(start.Ordinal + (i * childSize), childSize));
                }

                break;
            case Result answer:
                _sum += answer.Value;
                if (--_pending == 0)
                {
                    Answer(_sum);
                }

                break;
            default:
                Unhandled(message);
                break;
        }
    }

    protected override SupervisorStrategy SupervisorStrategy() => Escalating;

    private void Answer(long value)
    {
        Context.Parent.Tell(new Result(value));
        Context.Stop(Self);
    }
}
