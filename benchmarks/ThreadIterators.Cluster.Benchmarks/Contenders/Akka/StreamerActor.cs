using System;
using System.Threading.Tasks;
using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// The stream's sender on the first node: tells the sink its messages one by one, every <c>window</c>-th one (and the
/// last) asking for an acknowledgement, and sends nothing more until that acknowledgement is in, so that at most
/// <c>window</c> messages are ever unacknowledged.
/// </summary>
internal sealed class StreamerActor : ReceiveActor
{
    private readonly IActorRef _sink;
    private readonly long _count;
    private readonly int _window;
    private readonly TaskCompletionSource _done;
    private long _sent;

    /// <summary>Initializes a new instance of the <see cref="StreamerActor"/> class.</summary>
    /// <param name="sink">The sink on the second node.</param>
    /// <param name="count">How many messages to send.</param>
    /// <param name="window">How many may be unacknowledged at most.</param>
    /// <param name="done">Completed once the last message is acknowledged; failed if the sink saw one lost, repeated or out of order.</param>
    public StreamerActor(IActorRef sink, long count, int window, TaskCompletionSource done)
    {
        _sink = sink;
        _count = count;
        _window = window;
        _done = done;
        Receive<AkkaMessages.StreamAck>(OnAck);
    }

    /// <inheritdoc/>
    protected override void PreStart()
    {
        if (_count == 0)
        {
            Finish();
            return;
        }

        SendWindow();
    }

    /// <summary>Sends up to and including the next message that asks for an acknowledgement.</summary>
    private void SendWindow()
    {
        while (_sent < _count)
        {
            var seq = _sent++;
            var ack = seq % _window == _window - 1 || seq == _count - 1;
            _sink.Tell(new AkkaMessages.StreamItem(seq, ack), Self);
            if (ack)
            {
                return;
            }
        }
    }

    private void OnAck(AkkaMessages.StreamAck ack)
    {
        if (!ack.Ok || ack.InOrder != _sent)
        {
            _done.TrySetException(new InvalidOperationException(
                $"The sink saw a message lost, repeated or out of order: {ack.InOrder} in order when {_sent} were sent (ok: {ack.Ok})."));
            Context.Stop(Self);
            return;
        }

        if (_sent == _count)
        {
            Finish();
        }
        else
        {
            SendWindow();
        }
    }

    private void Finish()
    {
        _done.TrySetResult();
        Context.Stop(Self);
    }
}
