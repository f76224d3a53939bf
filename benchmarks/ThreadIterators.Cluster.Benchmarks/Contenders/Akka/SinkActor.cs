using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// The stream's sink on the second node: checks that each <see cref="AkkaMessages.StreamItem"/> is exactly the next
/// of its stream, and acknowledges to the sender the ones that ask for it with how many it saw in order and whether
/// every one was. A stream is one streamer actor: a message from another sender starts a new stream at 0.
/// </summary>
internal sealed class SinkActor : ReceiveActor
{
    private IActorRef? _from;
    private long _next;
    private bool _ok;

    /// <summary>Initializes a new instance of the <see cref="SinkActor"/> class.</summary>
    public SinkActor() => Receive<AkkaMessages.StreamItem>(Take);

    private void Take(AkkaMessages.StreamItem item)
    {
        var sender = Sender;
        if (!sender.Equals(_from))
        {
            _from = sender;
            _next = 0;
            _ok = true;
        }

        if (item.Seq == _next)
        {
            _next++;
        }
        else
        {
            _ok = false;
        }

        if (item.AckRequested)
        {
            sender.Tell(new AkkaMessages.StreamAck(_next, _ok));
        }
    }
}
