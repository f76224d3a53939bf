using System.Threading.Tasks;
using Proto;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of ThreadRing: spawns the 503 members as its children, tells each its successor, and gives the token to the
/// first. Being their parent, it is what the peer stops to be sure they are gone.
/// </summary>
/// <param name="hops">The token's hops.</param>
/// <param name="done">Completed by the winner.</param>
internal sealed class ThreadRingRun(long hops, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            var members = new PID[ThreadRing.Size];
            for (var i = 0; i < members.Length; i++)
            {
                var id = i + 1;
                members[i] = context.Spawn(Props.FromProducer(() => new ThreadRingMember(id, done)));
            }

            // A ring has no end to spawn from, so each member learns its successor by message, before any token.
            for (var i = 0; i < members.Length; i++)
            {
                context.Send(members[i], new Link(members[(i + 1) % members.Length]));
            }

            context.Send(members[0], new Token(hops));
        }

        return Task.CompletedTask;
    }
}
