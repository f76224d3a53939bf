using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>CountingActor's counter: adds up increments, and answers <see cref="GetCount"/> with the total to the sender, then stops, as the green counter ends.</summary>
internal sealed class Counter : UntypedActor
{
    private long _count;

    /// <summary>The props of a counter, made once.</summary>
    public static Props Props { get; } = Akka.Actor.Props.Create<Counter>();

    protected override void OnReceive(object message)
    {
        switch (message)
        {
            case Increment increment:
                _count += increment.Amount;
                break;
            case GetCount:
                Sender.Tell(new Result(_count));
                Context.Stop(Self);
                break;
            default:
                Unhandled(message);
                break;
        }
    }
}
