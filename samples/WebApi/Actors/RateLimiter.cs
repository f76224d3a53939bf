using System;
using System.Collections.Generic;
using ThreadIterators;

namespace WebApi.Actors;

/// <summary>
/// The rate limiter: a token bucket per client, all held by one green thread. A client may make
/// <see cref="Burst"/> requests at once and <see cref="PerSecond"/> a second after that.
/// </summary>
internal static class RateLimiter
{
    /// <summary>The mailbox's name.</summary>
    public const string Name = "rate-limiter";

    /// <summary>The most tokens a client's bucket holds.</summary>
    public const double Burst = 5;

    /// <summary>The tokens a client's bucket gains a second.</summary>
    public const double PerSecond = 2;

    /// <summary>Asks for a token of <paramref name="Client"/>'s bucket: answered true if there was one.</summary>
    public sealed record Acquire(string Client, ReplyTo<bool> Reply);

    /// <summary>The body.</summary>
    public static IEnumerable<Event> Run(Mailbox<Acquire> inbox, TimeProvider time)
    {
        var buckets = new Dictionary<string, (double Tokens, long At)>();
        while (true)
        {
            var request = inbox.Recv();
            yield return request;
            var now = time.GetTimestamp();
            var (tokens, at) = buckets.TryGetValue(request.Value.Client, out var bucket) ? bucket : (Burst, now);
            tokens = Math.Min(Burst, tokens + (time.GetElapsedTime(at, now).TotalSeconds * PerSecond));
            var granted = tokens >= 1;
            buckets[request.Value.Client] = (granted ? tokens - 1 : tokens, now);
            request.Value.Reply.Reply(granted);
        }
    }
}
