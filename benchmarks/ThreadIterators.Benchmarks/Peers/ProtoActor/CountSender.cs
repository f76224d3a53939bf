using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// The sender of the counting run: on start sends all N increments and the request for the total in one go, as the
/// green sender does without yielding, then reports the total it is answered.
/// </summary>
/// <param name="counter">The counting actor.</param>
/// <param name="messages">Increments to send.</param>
/// <param name="done">Completed with the total.</param>
internal sealed class CountSender(PID counter, long messages, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Started:
                for (long i = 0; i < messages; i++)
                {
                    context.Send(counter, Increment.One);
                }

                context.Send(counter, new GetCount(context.Self));
                break;
            case Total total:
                context.Stop(context.Self);
                done.TrySetResult(total.Count);
                break;
        }

        return Task.CompletedTask;
    }
}
