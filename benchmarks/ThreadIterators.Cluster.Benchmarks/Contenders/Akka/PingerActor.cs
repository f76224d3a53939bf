using System;
using System.Diagnostics;
using System.Threading.Tasks;
using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// The round trip's actor on the first node: tells the echo a <see cref="AkkaMessages.Ping"/>, waits for its
/// <see cref="AkkaMessages.Pong"/>, and only then sends the next, timing each from the send to the answer's arrival.
/// </summary>
internal sealed class PingerActor : ReceiveActor
{
    private readonly IActorRef _echo;
    private readonly double[] _rtts;
    private readonly TaskCompletionSource<double[]> _done;
    private int _next;
    private long _sentAt;

    /// <summary>Initializes a new instance of the <see cref="PingerActor"/> class.</summary>
    /// <param name="echo">The echo on the second node.</param>
    /// <param name="count">How many round trips to make.</param>
    /// <param name="done">Given the round trips' times in microseconds once the last answer is in.</param>
    public PingerActor(IActorRef echo, int count, TaskCompletionSource<double[]> done)
    {
        _echo = echo;
        _rtts = new double[count];
        _done = done;
        Receive<AkkaMessages.Pong>(OnPong);
    }

    /// <inheritdoc/>
    protected override void PreStart()
    {
        if (_rtts.Length == 0)
        {
            Finish();
            return;
        }

        Send();
    }

    private void Send()
    {
        _sentAt = Stopwatch.GetTimestamp();
        _echo.Tell(new AkkaMessages.Ping(_next), Self);
    }

    private void OnPong(AkkaMessages.Pong pong)
    {
        var elapsed = Stopwatch.GetElapsedTime(_sentAt).TotalMicroseconds;
        if (pong.Seq != _next)
        {
            _done.TrySetException(new InvalidOperationException($"Expected the answer to ping {_next}, got one to {pong.Seq}."));
            Context.Stop(Self);
            return;
        }

        _rtts[_next++] = elapsed;
        if (_next == _rtts.Length)
        {
            Finish();
        }
        else
        {
            Send();
        }
    }

    private void Finish()
    {
        _done.TrySetResult(_rtts);
        Context.Stop(Self);
    }
}
