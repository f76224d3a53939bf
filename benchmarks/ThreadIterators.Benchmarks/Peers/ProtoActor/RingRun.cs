using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of the ring: spawns the drain and the forwarders as its children, then pumps the messages and the stop
/// marker, as the green ring's pump thread does. Being their parent, it is what the peer stops to be sure they are gone.
/// </summary>
/// <param name="forwarders">Forwarders in the line.</param>
/// <param name="messages">Messages pumped before the stop marker.</param>
/// <param name="done">Completed by the drain.</param>
internal sealed class RingRun(int forwarders, int messages, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            // Spawned from the end so each forwarder is given the one after it.
            var next = context.Spawn(Props.FromProducer(() => new RingDrain(done)));
            for (var i = 0; i < forwarders; i++)
            {
                var after = next;
                next = context.Spawn(Props.FromProducer(() => new RingForwarder(after)));
            }

            for (var i = 0; i < messages; i++)
            {
                context.Send(next, new RingItem(i));
            }

            context.Send(next, StopMarker.Instance);
        }

        return Task.CompletedTask;
    }
}
