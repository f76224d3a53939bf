using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// The end of the ring's line: counts the messages that arrive in order (one pump sends them, so any other order is
/// an error) and, at the stop marker, reports the count to the driver: the number of messages, or -1 if one was out
/// of order, as the green drain does.
/// </summary>
internal sealed class RingDrain : UntypedActor
{
    private long _count;

    /// <summary>The props of a drain, made once: the drain takes no arguments, and props are immutable.</summary>
    public static Props Props { get; } = Akka.Actor.Props.Create<RingDrain>();

    protected override void OnReceive(object message)
    {
        if (message is not Token token)
        {
            Unhandled(message);
            return;
        }

        if (token.Value < 0)
        {
            Context.Parent.Tell(new Result(_count < 0 ? -1 : _count));
            Context.Stop(Self);
            return;
        }

        _count = token.Value == _count ? _count + 1 : long.MinValue;
    }
}
