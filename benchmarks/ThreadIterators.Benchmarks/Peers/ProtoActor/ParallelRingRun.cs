using System.Threading.Tasks;
using Proto;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of ParallelThreadRing: spawns the 503 members as its children, tells each its successor, and starts one
/// token of <c>H / 503</c> hops at each. Being their parent, it is what the peer stops to be sure they are gone.
/// </summary>
/// <param name="hops">The hops asked for in all.</param>
/// <param name="done">Completed by the member that retires the last token, once the stop marker has gone round.</param>
internal sealed class ParallelRingRun(long hops, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            var state = new ParallelRingState();
            var props = Props.FromProducer(() => new ParallelRingMember(state, done));
            var members = new PID[ParallelThreadRing.Size];
            for (var i = 0; i < members.Length; i++)
            {
                members[i] = context.Spawn(props);
            }

            for (var i = 0; i < members.Length; i++)
            {
                context.Send(members[i], new Link(members[(i + 1) % members.Length]));
            }

            for (var i = 0; i < members.Length; i++)
            {
                context.Send(members[i], new Token(hops / members.Length));
            }
        }

        return Task.CompletedTask;
    }
}
