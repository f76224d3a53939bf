using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of ProducerConsumer: spawns the consumer and then the two producers as its children; the producers start on
/// their own. Being their parent, it is what the peer stops to be sure they are gone.
/// </summary>
/// <param name="messages">Messages asked for; each producer sends half, rounded down.</param>
/// <param name="done">Completed by the consumer.</param>
internal sealed class ProducerConsumerRun(long messages, TaskCompletionSource<long> done) : IActor
{
    private const int Producers = 2;

    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            var each = messages / Producers;
            var consumer = context.Spawn(Props.FromProducer(() => new Consumer(Producers, each, done)));
            for (var p = 0; p < Producers; p++)
            {
                var producer = p;
                context.Spawn(Props.FromProducer(() => new Producer(consumer, producer, each)));
            }
        }

        return Task.CompletedTask;
    }
}
