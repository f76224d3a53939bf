using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>A producer: on start sends its N / 2 numbered messages to the consumer in one go and ends, as the green producer does.</summary>
/// <param name="consumer">Where the messages go.</param>
/// <param name="producer">This producer's number.</param>
/// <param name="count">Messages to send.</param>
internal sealed class Producer(PID consumer, int producer, long count) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            for (long i = 0; i < count; i++)
            {
                context.Send(consumer, new Produced(producer, i));
            }

            context.Stop(context.Self);
        }

        return Task.CompletedTask;
    }
}
