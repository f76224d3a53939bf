using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Samples.Testing;

/// <summary>
/// Three philosophers in a ring, each the keeper of its left fork, which it hands to its left neighbour on request.
/// Each sits down (receiving its seat, so it is its mailbox's receiver), hands its fork over if the request is
/// already there, thinks, asks its right neighbour for theirs, and hands its own over afterwards if it had not.
/// Buggy: if every philosopher asks before its own request has arrived, each ask waits on a philosopher who is
/// asking too: a deadlock, which the report shows as a cycle of asks. Fixed: the last philosopher waits for its
/// request and hands its fork over before it asks, breaking the symmetry (Dijkstra's resource ordering).
/// </summary>
public static class Philosophers
{
    private const int Count = 3;

    private sealed record Fork(ReplyTo<int> Reply);

    /// <summary>The buggy test.</summary>
    public static IEnumerable<Event> Buggy(Scheduler scheduler) => Run(scheduler, asymmetric: false);

    /// <summary>The fixed test.</summary>
    public static IEnumerable<Event> Fixed(Scheduler scheduler) => Run(scheduler, asymmetric: true);

    private static IEnumerable<Event> Run(Scheduler scheduler, bool asymmetric)
    {
        var inboxes = Enumerable.Range(0, Count).Select(i => new Mailbox<object>($"philosopher {i}")).ToArray();
        foreach (var inbox in inboxes)
        {
            inbox.Send("seat");
        }

        var philosophers = Enumerable.Range(0, Count).Select(i => scheduler.Spawn(Philosopher(i), $"philosopher {i}")).ToList();
        foreach (var philosopher in philosophers)
        {
            yield return philosopher.Exited;
        }

        IEnumerable<Event> Philosopher(int index)
        {
            var inbox = inboxes[index];
            var next = inbox.Recv();
            yield return next;
            var served = false;
            if (asymmetric && index == Count - 1)
            {
                yield return next;
                ((Fork)next.Value).Reply.Reply(index);
                served = true;
            }
            else if (inbox.TryRecv(out var early))
            {
                ((Fork)early).Reply.Reply(index);
                served = true;
            }

            yield return Event.Yield;
            yield return inboxes[(index + 1) % Count].Ask((ReplyTo<int> reply) => new Fork(reply), Timeout.InfiniteTimeSpan);
            if (!served)
            {
                yield return next;
                ((Fork)next.Value).Reply.Reply(index);
            }
        }
    }
}
