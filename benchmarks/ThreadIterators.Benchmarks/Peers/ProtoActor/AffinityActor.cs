using System.Threading.Tasks;
using Proto;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A cache-affinity actor: each message makes K random reads and writes of the actor's own state, then goes on one hop
/// less to an actor picked at random, with the same state arrays, seeds, random streams and picks as the green and
/// thread pool actors. The actor that retires the last message sends the stop marker to all; each adds its count and
/// ends.
/// </summary>
/// <param name="run">The run's shared bookkeeping.</param>
/// <param name="index">This actor's place among the run's actors, which picks its state and seed.</param>
/// <param name="actors">The run's states.</param>
/// <param name="accesses">Reads and writes per message.</param>
internal sealed class AffinityActor(AffinityRun run, int index, ActorStates actors, int accesses) : IActor
{
    private readonly long[] _state = actors.State[index];

    private ulong _random = ActorStates.Seed(index);

    private long _handled;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Visit visit:
                CacheAffinity.Touch(_state, ref _random, accesses);
                _handled++;
                if (visit.Hops > 1)
                {
                    var all = run.Actors;
                    context.Send(all[CacheAffinity.Pick(ref _random, all.Length)], new Visit(visit.Hops - 1));
                }
                else if (run.Retire())
                {
                    foreach (var other in run.Actors)
                    {
                        context.Send(other, StopMarker.Instance);
                    }
                }

                break;
            case StopMarker:
                context.Stop(context.Self);
                run.Finish(_handled);
                break;
        }

        return Task.CompletedTask;
    }
}
