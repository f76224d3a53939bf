using System;
using System.Collections.Generic;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Request-reply between two green threads, R requests in a row, each answered before the next is sent. The server
/// doubles the number it gets; the result is the sum of the replies, so a lost or crossed reply shows.
/// <list type="bullet">
/// <item>Ask: the caller yields <see cref="MailboxAsking.extension{T}(Mailbox{T}).Ask{TReply}"/> with a timeout: per request, a reply target, a
/// watch on the server, a deadline scheduled and cancelled, and the event.</item>
/// <item>AskWithoutTimeout: the same with <see cref="Timeout.InfiniteTimeSpan"/>: no deadline.</item>
/// <item>ReplyMailbox, the baseline: what a user writes without asks: the request carries the caller's own reply
/// mailbox, reused for every request. No timeout, no watch, and a late reply would land in that mailbox.</item>
/// </list>
/// </summary>
public static class Asks
{
    /// <summary>The result of <paramref name="requests"/> requests: twice the sum of 1..R.</summary>
    public static long Expected(long requests) => requests * (requests + 1);

    /// <summary>R asks, with a timeout or without.</summary>
    public static long Ask(Scheduler scheduler, int requests, bool timeout)
    {
        var inbox = new Mailbox<Request>("doubler");
        var server = scheduler.Spawn(Serve(inbox), "doubler");
        var sum = 0L;
        var caller = scheduler.Spawn(Call(inbox, requests, timeout ? TimeSpan.FromSeconds(30) : Timeout.InfiniteTimeSpan, s => sum = s), "caller");
        caller.Wait();
        server.Stop();
        return sum;
    }

    /// <summary>The baseline: R requests answered into the caller's own mailbox.</summary>
    public static long ReplyMailbox(Scheduler scheduler, int requests)
    {
        var inbox = new Mailbox<PlainRequest>("doubler");
        var server = scheduler.Spawn(ServePlain(inbox), "doubler");
        var sum = 0L;
        var caller = scheduler.Spawn(CallPlain(inbox, requests, s => sum = s), "caller");
        caller.Wait();
        server.Stop();
        return sum;
    }

    private static IEnumerable<Event> Serve(Mailbox<Request> inbox)
    {
        var next = inbox.Recv();
        while (true)
        {
            yield return next;
            next.Value.Reply.Reply(next.Value.Value * 2);
        }
    }

    private static IEnumerable<Event> Call(Mailbox<Request> inbox, int requests, TimeSpan timeout, Action<long> done)
    {
        var sum = 0L;
        for (var i = 1; i <= requests; i++)
        {
            var n = i;
            var ask = inbox.Ask((ReplyTo<long> reply) => new Request(n, reply), timeout);
            yield return ask;
            sum += ask.Value;
        }

        done(sum);
    }

    private static IEnumerable<Event> ServePlain(Mailbox<PlainRequest> inbox)
    {
        var next = inbox.Recv();
        while (true)
        {
            yield return next;
            next.Value.ReplyTo.Send(next.Value.Value * 2);
        }
    }

    private static IEnumerable<Event> CallPlain(Mailbox<PlainRequest> inbox, int requests, Action<long> done)
    {
        var replies = new Mailbox<long>("replies");
        var reply = replies.Recv();
        var sum = 0L;
        for (var i = 1; i <= requests; i++)
        {
            inbox.Send(new PlainRequest(i, replies));
            yield return reply;
            sum += reply.Value;
        }

        done(sum);
    }

    /// <summary>A request with its one-shot reply target.</summary>
    private sealed record Request(long Value, ReplyTo<long> Reply);

    /// <summary>A request that names the caller's mailbox.</summary>
    private sealed record PlainRequest(long Value, Mailbox<long> ReplyTo);
}
