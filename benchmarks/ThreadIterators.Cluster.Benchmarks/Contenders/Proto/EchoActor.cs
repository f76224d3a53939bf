using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// The round trip's far end, and the node-down workload's watched actor: answers each <see cref="Ping"/> with a
/// <see cref="Pong"/> of the same number, sent to the request's sender.
/// </summary>
internal sealed class EchoActor : IActor
{
    /// <inheritdoc />
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Ping ping)
        {
            context.Respond(new Pong { Seq = ping.Seq });
        }

        return Task.CompletedTask;
    }
}
