using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>One of ProducerConsumer's producers: on <see cref="Start"/>, tells the consumer its messages in one go, numbered from 0, and stops, as the green producer ends.</summary>
internal sealed class Producer : UntypedActor
{
    private readonly IActorRef _consumer;

    private readonly int _producer;

    private readonly long _count;

    /// <summary>Initializes a new instance of the <see cref="Producer"/> class.</summary>
    /// <param name="consumer">The consumer.</param>
    /// <param name="producer">This producer's number, from 0.</param>
    /// <param name="count">Messages to send.</param>
    public Producer(IActorRef consumer, int producer, long count)
    {
        _consumer = consumer;
        _producer = producer;
        _count = count;
    }

    /// <summary>The props of producer <paramref name="producer"/>.</summary>
    public static Props Props(IActorRef consumer, int producer, long count) => Akka.Actor.Props.Create(() => new Producer(consumer, producer, count));

    protected override void OnReceive(object message)
    {
        if (message is not Start)
        {
            Unhandled(message);
            return;
        }

        for (long i = 0; i < _count; i++)
        {
            _consumer.Tell(Produced.Of(_producer, i));
        }

        Context.Stop(Self);
    }
}
