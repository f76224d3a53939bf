using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of Skynet: spawns the tree's root node as its child, starts it on all the leaves, and reports the root's
/// answer, as the green root thread does. Being the tree's top, it is what the peer stops to be sure the tree is gone.
/// </summary>
/// <param name="leaves">Leaves of the tree, a power of ten.</param>
/// <param name="done">Completed with the root's answer.</param>
internal sealed class SkynetRun(long leaves, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Started:
                context.Send(context.Spawn(SkynetNode.Props), new SkynetStart(0, leaves));
                break;
            case SkynetSum answer:
                done.TrySetResult(answer.Value);
                break;
        }

        return Task.CompletedTask;
    }
}
