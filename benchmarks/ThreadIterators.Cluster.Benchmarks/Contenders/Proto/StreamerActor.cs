using System;
using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// The stream's sender, on the first node: after the sink has confirmed a <see cref="StreamStart"/>, sends
/// <c>count</c> numbered <see cref="StreamItem"/>s one by one with <c>Send</c>; every <c>window</c>-th (and the
/// last) goes by <c>Request</c> and asks for a <see cref="StreamAck"/>, which this waits for before sending more, so
/// that at most <c>window</c> are unacknowledged. Completes <c>done</c> after the last ack, or fails it if an ack
/// says the sink saw a message lost, repeated or out of order.
/// </summary>
internal sealed class StreamerActor(PID sink, int count, int window, TaskCompletionSource done) : IActor
{
    private int _next;

    /// <inheritdoc />
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Started:
                context.Request(sink, new StreamStart());
                break;
            case StreamStarted:
                SendOrFinish(context);
                break;
            case StreamAck ack:
                if (ack.Failed || ack.InOrder != _next)
                {
                    done.TrySetException(new InvalidOperationException(
                        $"The sink acknowledged {ack.InOrder} messages in order{(ack.Failed ? " and then one out of order" : string.Empty)}, after {_next} were sent."));
                    context.Stop(context.Self);
                    break;
                }

                SendOrFinish(context);
                break;
        }

        return Task.CompletedTask;
    }

    private void SendOrFinish(IContext context)
    {
        while (_next < count)
        {
            var seq = _next++;
            if (seq % window == window - 1 || seq == count - 1)
            {
                context.Request(sink, new StreamItem { Seq = seq, Ack = true });
                return;
            }

            context.Send(sink, new StreamItem { Seq = seq });
        }

        done.TrySetResult();
        context.Stop(context.Self);
    }
}
