using System;
using System.Collections.Generic;
using System.Globalization;
using ThreadIterators;

namespace WebApi.Actors;

/// <summary>
/// The cache: a registry thread hands each key's requests to that key's own green thread, spawned on the key's first
/// request, which computes the value once and answers every later request from memory. The registry forwards the
/// request, reply target and all, so the key's thread answers the caller directly.
/// </summary>
internal static class KeyCache
{
    /// <summary>The registry mailbox's name.</summary>
    public const string Name = "cache";

    /// <summary>Asks for <paramref name="Key"/>'s value.</summary>
    public sealed record Get(string Key, ReplyTo<string> Reply);

    /// <summary>The registry's body.</summary>
    public static IEnumerable<Event> Run(Mailbox<Get> inbox)
    {
        var scheduler = GreenThread.Current!.Scheduler;
        var entries = new Dictionary<string, Mailbox<Get>>();
        while (true)
        {
            var request = inbox.Recv();
            yield return request;
            if (!entries.TryGetValue(request.Value.Key, out var entry))
            {
                // One mailbox name for every key: it names the traces' spans, which should be few.
                entry = new Mailbox<Get>("cache entry");
                scheduler.SpawnReceiver(entry, Entry(entry, request.Value.Key), $"cache entry {request.Value.Key}");
                entries.Add(request.Value.Key, entry);
            }

            entry.Send(request.Value);
        }
    }

    /// <summary>A key's thread.</summary>
    private static IEnumerable<Event> Entry(Mailbox<Get> inbox, string key)
    {
        string? value = null;
        var hits = 0;
        while (true)
        {
            var request = inbox.Recv();
            yield return request;
            value ??= $"{key} (computed at {DateTimeOffset.UtcNow.ToString("HH:mm:ss.fff", CultureInfo.InvariantCulture)})";
            request.Value.Reply.Reply($"{value}, request {++hits}");
        }
    }
}
