using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// The consumer: checks that each producer's messages arrive in that producer's order, and once it has them all reports
/// how many did, so a lost, duplicated or reordered message changes the result.
/// </summary>
/// <param name="producers">Producers sending.</param>
/// <param name="each">Messages each producer sends.</param>
/// <param name="done">Completed with the count received in order.</param>
internal sealed class Consumer(int producers, long each, TaskCompletionSource<long> done) : IActor
{
    private readonly long[] _next = new long[producers];

    private long _received;

    private long _inOrder;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Produced message:
                _inOrder += message.Sequence == _next[message.Producer]++ ? 1 : 0;
                if (++_received == producers * each)
                {
                    Finish(context);
                }

                break;
            case Started when each == 0:
                Finish(context);
                break;
        }

        return Task.CompletedTask;
    }

    private void Finish(IContext context)
    {
        context.Stop(context.Self);
        done.TrySetResult(_inOrder);
    }
}
