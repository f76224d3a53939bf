using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// The end of the ring: counts the messages that arrive in order and reports the count at the stop marker, so a lost,
/// duplicated or reordered message changes the result.
/// </summary>
/// <param name="done">Completed with the count.</param>
internal sealed class RingDrain(TaskCompletionSource<long> done) : IActor
{
    private long _count;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case RingItem item:
                _count = item.Sequence == _count ? _count + 1 : long.MinValue;
                break;
            case StopMarker:
                context.Stop(context.Self);
                done.TrySetResult(_count);
                break;
        }

        return Task.CompletedTask;
    }
}
