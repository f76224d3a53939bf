using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The cache-affinity experiment (actor-scheduling-cache-effects seed): A actors, each with S bytes of private state;
/// every message makes K random reads and writes of its actor's state, then goes on to an actor picked at random.
/// One message starts at each actor (A in flight), the M messages of the run split among them; a message that has
/// made its hops retires. An actor handles its messages one after another, so where the scheduler runs an actor
/// decides whether its state is still in that core's cache. The result is the number of messages handled, M.
/// </summary>
public static class CacheAffinity
{
    /// <summary>The messages handled for a requested total of <paramref name="messages"/>.</summary>
    public static long Expected(long messages) => messages;

    /// <summary>Green threads and mailboxes, one actor per thread.</summary>
    public static long GreenThreads(Scheduler scheduler, ActorStates actors, int accesses, long messages)
    {
        var count = actors.Count;
        var inboxes = new Mailbox<long>[count];
        for (var i = 0; i < count; i++)
        {
            inboxes[i] = new Mailbox<long>();
        }

        using var run = new MessageCount(Tokens(count, messages));
        for (var i = 0; i < count; i++)
        {
            scheduler.Spawn(Actor(inboxes, i, actors, accesses, run));
        }

        SendTokens(count, messages, (actor, hops) => inboxes[actor].Send(hops));
        scheduler.WaitForAll();
        return run.Handled;
    }

    /// <summary>
    /// The baseline: the same actors on the .NET thread pool, in the seed's style: each message is one work item on
    /// the pool's shared queue, and an actor's next message is queued when the previous one has finished.
    /// </summary>
    public static long ThreadPool(ActorStates actors, int accesses, long messages)
    {
        var count = actors.Count;
        using var run = new MessageCount(Tokens(count, messages));
        var pool = new PoolActor[count];
        for (var i = 0; i < count; i++)
        {
            pool[i] = new PoolActor(pool, actors.State[i], ActorStates.Seed(i), accesses, run);
        }

        SendTokens(count, messages, (actor, hops) => pool[actor].Post(hops));
        run.WaitUntilRetired();
        long handled = 0;
        foreach (var actor in pool)
        {
            handled += actor.Handled;
        }

        return handled;
    }

    /// <summary>One message's work: <paramref name="accesses"/> random reads and writes of the actor's state.</summary>
    internal static void Touch(long[] state, ref ulong random, int accesses)
    {
        var length = (ulong)state.Length;
        for (var k = 0; k < accesses; k++)
        {
            var i = (int)(((Next(ref random) >> 32) * length) >> 32);
            state[i] += (long)random;
        }
    }

    /// <summary>The actor a message goes to next, picked at random.</summary>
    internal static int Pick(ref ulong random, int actors) => (int)(((Next(ref random) >> 32) * (ulong)actors) >> 32);

    private static ulong Next(ref ulong random)
    {
        // xorshift64: cheap next to the state accesses, and each actor's stream is its own.
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        return random;
    }

    /// <summary>Messages in flight: one per actor, or fewer if the run has fewer messages than actors.</summary>
    private static int Tokens(int actors, long messages) => (int)System.Math.Min(actors, messages);

    /// <summary>Starts one message at each actor with its share of the hops.</summary>
    private static void SendTokens(int actors, long messages, System.Action<int, long> send)
    {
        var tokens = Tokens(actors, messages);
        for (var i = 0; i < tokens; i++)
        {
            send(i, (messages / tokens) + (i < messages % tokens ? 1 : 0));
        }
    }

    private static IEnumerable<Event> Actor(Mailbox<long>[] inboxes, int index, ActorStates actors, int accesses, MessageCount run)
    {
        var inbox = inboxes[index];
        var state = actors.State[index];
        var random = ActorStates.Seed(index);
        long handled = 0;
        while (true)
        {
            var message = inbox.Recv();
            yield return message;
            var hops = message.Value;
            if (hops < 0)
            {
                break;
            }

            Touch(state, ref random, accesses);
            handled++;
            if (hops > 1)
            {
                inboxes[Pick(ref random, inboxes.Length)].Send(hops - 1);
            }
            else if (run.Retire())
            {
                foreach (var other in inboxes)
                {
                    other.Send(-1);
                }
            }
        }

        run.Add(handled);
    }
}
