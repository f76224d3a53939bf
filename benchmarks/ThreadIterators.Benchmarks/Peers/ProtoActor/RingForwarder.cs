using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A ring forwarder: hands every message on unchanged and ends after the stop marker, as the green forwarder does.
/// </summary>
/// <param name="next">The next forwarder, or the drain; known at spawn because the run spawns the line from its end.</param>
internal sealed class RingForwarder(PID next) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case RingItem item:
                context.Send(next, item);
                break;
            case StopMarker:
                context.Send(next, StopMarker.Instance);
                context.Stop(context.Self);
                break;
        }

        return Task.CompletedTask;
    }
}
