using System;
using System.Diagnostics;
using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// The round trip's near end, on the first node: sends a <see cref="Ping"/> to the echo by <c>Request</c> (so the
/// envelope carries this actor's PID), waits for its <see cref="Pong"/>, and only then sends the next; each round
/// trip is timed from the send to the answer's arrival here, into <c>rtts</c>. Completes <c>done</c> after the last.
/// </summary>
internal sealed class PingerActor(PID echo, double[] rtts, TaskCompletionSource done) : IActor
{
    private int _next;
    private long _sent;

    /// <inheritdoc />
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Started:
                SendOrFinish(context);
                break;
            case Pong pong:
                rtts[_next] = Stopwatch.GetElapsedTime(_sent).TotalMicroseconds;
                if (pong.Seq != _next)
                {
                    done.TrySetException(new InvalidOperationException($"Pong {pong.Seq} came back for ping {_next}."));
                    context.Stop(context.Self);
                    break;
                }

                _next++;
                SendOrFinish(context);
                break;
        }

        return Task.CompletedTask;
    }

    private void SendOrFinish(IContext context)
    {
        if (_next == rtts.Length)
        {
            done.TrySetResult();
            context.Stop(context.Self);
            return;
        }

        _sent = Stopwatch.GetTimestamp();
        context.Request(echo, new Ping { Seq = _next });
    }
}
