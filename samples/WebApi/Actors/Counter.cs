using System.Collections.Generic;
using ThreadIterators;

namespace WebApi.Actors;

/// <summary>The counter: one green thread owns the count, and answers each ask with the count after it.</summary>
internal static class Counter
{
    /// <summary>The mailbox's name, and so the traces' destination.</summary>
    public const string Name = "counter";

    /// <summary>Adds <paramref name="Amount"/> and answers with the new count.</summary>
    public sealed record Add(long Amount, ReplyTo<long> Reply);

    /// <summary>The body: takes one request at a time, so the count needs no lock.</summary>
    public static IEnumerable<Event> Run(Mailbox<Add> inbox)
    {
        var count = 0L;
        while (true)
        {
            var request = inbox.Recv();
            yield return request;
            count += request.Value.Amount;
            request.Value.Reply.Reply(count);
        }
    }
}
