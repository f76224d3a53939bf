using System;
using System.Threading.Tasks;
using Proto;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of the cache-affinity workload: spawns one actor per state as its children and starts one message at each
/// (fewer if the run has fewer messages than actors) with its share of the hops, as the green run does. Being their
/// parent, it is what the peer stops to be sure they are gone.
/// </summary>
/// <param name="states">The actors' states, one array per actor.</param>
/// <param name="accesses">Reads and writes per message.</param>
/// <param name="messages">Messages handled in all.</param>
/// <param name="done">Completed once every actor has finished.</param>
internal sealed class CacheAffinityRun(ActorStates states, int accesses, long messages, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            Start(context);
        }

        return Task.CompletedTask;
    }

    private void Start(IContext context)
    {
        var tokens = (int)Math.Min(states.Count, messages);
        var run = new AffinityRun(states.Count, tokens, done);
        for (var i = 0; i < states.Count; i++)
        {
            var index = i;
            run.Actors[i] = context.Spawn(Props.FromProducer(() => new AffinityActor(run, index, states, accesses)));
        }

        if (tokens == 0)
        {
            // No message to retire, so nobody would send the stop marker.
            foreach (var actor in run.Actors)
            {
                context.Send(actor, StopMarker.Instance);
            }

            return;
        }

        for (var i = 0; i < tokens; i++)
        {
            context.Send(run.Actors[i], new Visit((messages / tokens) + (i < messages % tokens ? 1 : 0)));
        }
    }
}
