using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of CountingActor: spawns the counter and the sender as its children; the sender starts on its own. Being
/// their parent, it is what the peer stops to be sure they are gone.
/// </summary>
/// <param name="messages">Increments to count.</param>
/// <param name="done">Completed by the sender.</param>
internal sealed class CountingRun(long messages, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            var counter = context.Spawn(Props.FromProducer(() => new Counter()));
            context.Spawn(Props.FromProducer(() => new CountSender(counter, messages, done)));
        }

        return Task.CompletedTask;
    }
}
