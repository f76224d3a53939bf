using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A ping-pong player: answers each ball with the counter minus one, except the ball carrying 1, which ends the game
/// and is the result. It ends after its share of the balls, as the green player does.
/// </summary>
/// <param name="receives">Balls this player receives: <c>(M + 1) / 2</c> for the one served first, <c>M / 2</c> for the other.</param>
/// <param name="done">Completed with the last ball's counter.</param>
internal sealed class PingPongPlayer(long receives, TaskCompletionSource<long> done) : IActor
{
    private PID? _other;

    private long _received;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Ball ball:
                if (ball.Count == 1)
                {
                    done.TrySetResult(ball.Count);
                }
                else
                {
                    context.Send(_other!, new Ball(ball.Count - 1));
                }

                if (++_received == receives)
                {
                    context.Stop(context.Self);
                }

                break;
            case Link link:
                _other = link.Next;
                break;
        }

        return Task.CompletedTask;
    }
}
