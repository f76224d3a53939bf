using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>The counting actor: adds up increments, answers one <see cref="GetCount"/> and ends, as the green counter does.</summary>
internal sealed class Counter : IActor
{
    private long _count;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Increment increment:
                _count += increment.Amount;
                break;
            case GetCount request:
                context.Send(request.ReplyTo, new Total(_count));
                context.Stop(context.Self);
                break;
        }

        return Task.CompletedTask;
    }
}
