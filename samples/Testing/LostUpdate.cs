using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Samples.Testing;

/// <summary>
/// Two clients each add one to a counter held by a server. Buggy: each reads the value (an ask) and then writes the
/// value plus one (another ask), so two reads before either write lose an update. Fixed: the server increments.
/// </summary>
public static class LostUpdate
{
    private sealed record Get(ReplyTo<int> Reply);

    private sealed record Set(int Value, ReplyTo<bool> Reply);

    private sealed record Increment(ReplyTo<int> Reply);

    /// <summary>The buggy test.</summary>
    public static IEnumerable<Event> Buggy(Scheduler scheduler) => Run(scheduler, increments: false);

    /// <summary>The fixed test.</summary>
    public static IEnumerable<Event> Fixed(Scheduler scheduler) => Run(scheduler, increments: true);

    private static IEnumerable<Event> Run(Scheduler scheduler, bool increments)
    {
        var inbox = new Mailbox<object>("counter");
        var value = 0;
        var server = scheduler.Spawn(Serve(), "counter");
        var clients = Enumerable.Range(0, 2).Select(i => scheduler.Spawn(increments ? Add() : ReadThenWrite(), $"client {i}")).ToList();
        foreach (var client in clients)
        {
            yield return client.Exited;
        }

        inbox.Complete();
        yield return server.Exited;
        ClassicBugs.Expect(value == 2, $"lost update: two increments left the counter at {value}");

        IEnumerable<Event> Serve()
        {
            var request = inbox.Recv();
            while (true)
            {
                yield return request;
                if (request.IsCompleted)
                {
                    yield break;
                }

                switch (request.Value)
                {
                    case Get get:
                        get.Reply.Reply(value);
                        break;
                    case Set set:
                        value = set.Value;
                        set.Reply.Reply(true);
                        break;
                    case Increment increment:
                        increment.Reply.Reply(++value);
                        break;
                }
            }
        }

        IEnumerable<Event> ReadThenWrite()
        {
            var get = inbox.Ask((ReplyTo<int> reply) => new Get(reply), Timeout.InfiniteTimeSpan);
            yield return get;
            yield return inbox.Ask((ReplyTo<bool> reply) => new Set(get.Value + 1, reply), Timeout.InfiniteTimeSpan);
        }

        IEnumerable<Event> Add()
        {
            yield return inbox.Ask((ReplyTo<int> reply) => new Increment(reply), Timeout.InfiniteTimeSpan);
        }
    }
}
