using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// CountingActor's sender: on <see cref="Start"/>, tells the counter N increments and then <see cref="GetCount"/> in
/// one go, as the green sender does without yielding; passes the counter's answer to the driver and stops.
/// </summary>
internal sealed class CountingSender : UntypedActor
{
    private readonly IActorRef _counter;

    private readonly long _messages;

    /// <summary>Initializes a new instance of the <see cref="CountingSender"/> class.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="messages">Increments to send.</param>
    public CountingSender(IActorRef counter, long messages)
    {
        _counter = counter;
        _messages = messages;
    }

    /// <summary>The props of a sender.</summary>
    public static Props Props(IActorRef counter, long messages) => Akka.Actor.Props.Create(() => new CountingSender(counter, messages));

    protected override void OnReceive(object message)
    {
        switch (message)
        {
            case Start:
                for (long i = 0; i < _messages; i++)
                {
                    _counter.Tell(Increment.One);
                }

                _counter.Tell(GetCount.Instance);
                break;
            case Result total:
                Context.Parent.Tell(total);
                Context.Stop(Self);
                break;
            default:
                Unhandled(message);
                break;
        }
    }
}
