using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A ParallelThreadRing member: passes each token on one less and counts the hop; a token at 0 retires here. The member
/// that retires the last token starts the stop marker round; every other member adds its hops, forwards the marker
/// and ends.
/// </summary>
/// <remarks>
/// As in ThreadRing, the member that starts the marker round ends when the marker comes back rather than at once, so
/// no message goes to a stopped actor; by then every other member has added its hops, so it can report the total.
/// </remarks>
/// <param name="state">The run's shared counts.</param>
/// <param name="done">Completed with the total hops by the member that started the marker round.</param>
internal sealed class ParallelRingMember(ParallelRingState state, TaskCompletionSource<long> done) : IActor
{
    private PID? _next;

    private long _hops;

    private bool _startedStop;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Token { Remaining: > 0 } token:
                _hops++;
                context.Send(_next!, new Token(token.Remaining - 1));
                break;
            case Token:
                if (state.Retire())
                {
                    state.Add(_hops);
                    _startedStop = true;
                    context.Send(_next!, StopMarker.Instance);
                }

                break;
            case StopMarker when _startedStop:
                context.Stop(context.Self);
                done.TrySetResult(state.Hops);
                break;
            case StopMarker:
                state.Add(_hops);
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
