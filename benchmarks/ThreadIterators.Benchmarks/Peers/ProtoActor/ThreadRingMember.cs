using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A ThreadRing member: passes the token on one less, and the member that receives 0 is the winner and starts the stop
/// marker round; every other member forwards the marker and ends.
/// </summary>
/// <remarks>
/// The green winner ends as soon as it has sent the marker, and the marker's last hop lands in its mailbox unread.
/// Here the winner waits for that last hop instead and ends then: the same messages are sent, none goes to a stopped
/// actor (Proto.Actor would publish it as a dead letter), and the winner knows every other member has had the marker.
/// </remarks>
/// <param name="id">The member's 1-based place in the ring, the answer if it wins.</param>
/// <param name="done">Completed by the winner with its id.</param>
internal sealed class ThreadRingMember(int id, TaskCompletionSource<long> done) : IActor
{
    private PID? _next;

    private bool _won;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Token { Remaining: > 0 } token:
                context.Send(_next!, new Token(token.Remaining - 1));
                break;
            case Token:
                _won = true;
                context.Send(_next!, StopMarker.Instance);
                break;
            case StopMarker when _won:
                context.Stop(context.Self);
                done.TrySetResult(id);
                break;
            case StopMarker:
                context.Send(_next!, StopMarker.Instance);
                context.Stop(context.Self);
                break;
            case Link link:
                _next = link.Next;
                break;
        }

        return Task.CompletedTask;
    }
}
