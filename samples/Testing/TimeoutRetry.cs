using System;
using System.Collections.Generic;
using ThreadIterators;

namespace ThreadIterators.Samples.Testing;

/// <summary>
/// A client asks a server to apply a payment, with a one-second timeout, and retries once if it times out. Buggy: a
/// reply that is only late, not lost, means the server applies the payment twice. Fixed: each request carries an id
/// and the server applies an id once (an idempotent request), replying to the retry as well.
/// </summary>
public static class TimeoutRetry
{
    private sealed record Pay(int Id, ReplyTo<int> Reply);

    /// <summary>The buggy test.</summary>
    public static IEnumerable<Event> Buggy(Scheduler scheduler) => Run(scheduler, idempotent: false);

    /// <summary>The fixed test.</summary>
    public static IEnumerable<Event> Fixed(Scheduler scheduler) => Run(scheduler, idempotent: true);

    private static IEnumerable<Event> Run(Scheduler scheduler, bool idempotent)
    {
        var inbox = new Mailbox<Pay>("payments");
        var applied = 0;
        var seen = new HashSet<int>();
        var server = scheduler.Spawn(Serve(), "payments");
        var client = scheduler.Spawn(PayOnce(), "client");
        yield return client.Exited;
        inbox.Complete();
        yield return server.Exited;
        ClassicBugs.Expect(applied == 1, $"one payment applied {applied} times");

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

                if (!idempotent || seen.Add(request.Value.Id))
                {
                    applied++;
                }

                request.Value.Reply.Reply(applied);
            }
        }

        IEnumerable<Event> PayOnce()
        {
            for (var attempt = 0; attempt < 2; attempt++)
            {
                var ask = inbox.Ask((ReplyTo<int> reply) => new Pay(Id: 42, reply), TimeSpan.FromSeconds(1));
                yield return ask;
                if (ask.Exception is not TimeoutException)
                {
                    yield break;
                }
            }
        }
    }
}
