using Akka.Actor;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// ProducerConsumer's consumer: receives every producer's messages and counts those that are their producer's next
/// one (Akka.NET keeps the order of the messages of one sender to one receiver). After the last it reports the count
/// and stops, as the green consumer ends.
/// </summary>
internal sealed class Consumer : UntypedActor
{
    private readonly long[] _next;

    private readonly long _expected;

    private long _received;

    private long _inOrder;

    /// <summary>Initializes a new instance of the <see cref="Consumer"/> class.</summary>
    /// <param name="producers">Producers.</param>
    /// <param name="each">Messages each producer sends.</param>
    public Consumer(int producers, long each)
    {
        _next = new long[producers];
        _expected = producers * each;
    }

    /// <summary>The props of a consumer.</summary>
    public static Props Props(int producers, long each) => Akka.Actor.Props.Create(() => new Consumer(producers, each));

    /// <summary>With no messages to wait for (fewer than one per producer), the answer is known at once.</summary>
    protected override void PreStart()
    {
        if (_expected == 0)
        {
            Report();
        }
    }

    protected override void OnReceive(object message)
    {
        if (message is not Produced produced)
        {
            Unhandled(message);
            return;
        }

        _inOrder += produced.Sequence == _next[produced.Producer]++ ? 1 : 0;
        if (++_received == _expected)
        {
            Report();
        }
    }

    private void Report()
    {
        Context.Parent.Tell(new Result(_inOrder));
        Context.Stop(Self);
    }
}
