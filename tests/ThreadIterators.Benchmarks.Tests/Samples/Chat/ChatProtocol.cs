using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Tests;

/// <summary>
/// The chat protocol end to end on 127.0.0.1, against any server of it (the green-thread sample, the async/await one):
/// joins, broadcast to every other member in each sender's order with every line counted, the idle timeout, a client
/// that stops reading, a client that vanishes mid-line, and a connection whose code fails.
/// </summary>
internal static class ChatProtocol
{
    /// <summary>Rooms of ten: every line reaches every other member once, in each sender's order, every line counted.</summary>
    public static async Task RoomsOfTen_EveryLineReachesEveryOtherMemberOnce_InEachSendersOrder(Func<ChatOptions, IChatServer> start, ChatOptions options)
    {
        const int Connections = 120;
        const int RoomSize = 10;
        const int Lines = 10;
        using var server = start(options);
        var clients = await Task.WhenAll(Enumerable.Range(0, Connections).Select(_ => ChatClient.ConnectAsync(server.Port)));
        try
        {
            await Task.WhenAll(clients.Select((client, i) => client.JoinAsync($"room {i / RoomSize}")));
            var readers = clients.Select(client => ReadLinesAsync(client, (RoomSize - 1) * Lines)).ToArray();
            await Task.WhenAll(clients.Select(async client =>
            {
                for (var line = 0; line < Lines; line++)
                {
                    await client.SendAsync($"line {line}");
                }
            }));

            var received = await Task.WhenAll(readers);
            for (var i = 0; i < Connections; i++)
            {
                var others = clients.Where((_, j) => j / RoomSize == i / RoomSize && j != i).Select(c => c.Id).Order();
                var bySender = received[i].Select(ParseBroadcast).GroupBy(b => b.Sender).ToDictionary(g => g.Key, g => g.Select(b => b.Text).ToList());
                Assert.Equal(others, bySender.Keys.Order());
                foreach (var lines in bySender.Values)
                {
                    Assert.Equal(Enumerable.Range(0, Lines).Select(line => $"line {line}"), lines);
                }
            }

            foreach (var client in clients)
            {
                await client.SendAsync("/quit");
                Assert.Equal("/bye", await client.ReadLineAsync());
                Assert.Null(await client.ReadLineAsync());
            }

            // Every line counted in: each client's join, its lines and its quit.
            Waiting.Until(
                () => server.Counters is { Connections: 0, Rooms: 0 } && server.Counters.LinesIn == Connections * (Lines + 2),
                () => $"every connection and room ends, with {Connections * (Lines + 2)} lines in ({server.Counters})");
        }
        finally
        {
            await DisposeAll(clients);
        }
    }

    /// <summary>A connection that sends nothing is told, then closed, after the idle timeout.</summary>
    public static async Task IdleConnection_IsToldAndClosedAfterTheTimeout(Func<ChatOptions, IChatServer> start, ChatOptions options)
    {
        using var server = start(With(options, idleTimeout: TimeSpan.FromMilliseconds(100)));
        await using var idle = await ChatClient.ConnectAsync(server.Port);
        Assert.Equal("/bye idle", await idle.ReadLineAsync());
        Assert.Null(await idle.ReadLineAsync());
        Waiting.Until(() => server.Counters is { Connections: 0, ClosedIdle: 1 }, () => $"the idle connection is counted and ends ({server.Counters})");
    }

    /// <summary>A client that stops reading is dropped; the others get every line, in order.</summary>
    public static async Task ClientThatStopsReading_IsDropped_OthersGetEveryLine_InOrder(Func<ChatOptions, IChatServer> start, ChatOptions options)
    {
        using var server = start(With(options, outboundCapacity: 256));
        await using var sender = await ChatClient.ConnectAsync(server.Port);
        await using var reader = await ChatClient.ConnectAsync(server.Port);
        await using var stalled = await ChatClient.ConnectAsync(server.Port, receiveBufferBytes: 4096);
        await sender.JoinAsync("r");
        await reader.JoinAsync("r");
        await stalled.JoinAsync("r");

        // Lines of a kilobyte until the stalled client's socket buffers and its outbound mailbox are full. The capacity
        // is well above the lines a room sends in one turn, so a client that reads is never dropped for a burst.
        // The sender keeps at most 128 lines ahead of the reading client (whose test code shares the machine with the
        // server), so that only the stalled client falls behind.
        var padding = new string('x', 1000);
        var sent = 0;
        using var credits = new SemaphoreSlim(128);
        var reading = ReadUntilAsync(reader, $"{sender.Id} last", () => credits.Release());
        while (server.Counters.DroppedSlow == 0)
        {
            Assert.True(sent < 200_000, $"the stalled client was never dropped after {sent} lines ({server.Counters})");
            for (var i = 0; i < 100; i++, sent++)
            {
                Assert.True(await credits.WaitAsync(Waiting.Timeout), $"the reading client fell behind after {sent} lines ({server.Counters})");
                await sender.SendAsync($"{sent} {padding}");
            }
        }

        await sender.SendAsync("last");
        var lines = await reading;
        Assert.Equal(Enumerable.Range(0, sent).Select(i => $"{sender.Id} {i} {padding}"), lines);
        Assert.Equal(1, server.Counters.DroppedSlow);
        Waiting.Until(() => server.Counters.Connections == 2, () => $"the dropped connection ends ({server.Counters})");
    }

    /// <summary>A client that vanishes mid-line ends alone, and its half line goes nowhere.</summary>
    public static async Task ClientThatVanishesMidLine_EndsAlone_ItsHalfLineGoesNowhere(Func<ChatOptions, IChatServer> start, ChatOptions options)
    {
        using var server = start(options);
        await using var a = await ChatClient.ConnectAsync(server.Port);
        await using var b = await ChatClient.ConnectAsync(server.Port);
        var vanisher = await ChatClient.ConnectAsync(server.Port);
        await a.JoinAsync("r");
        await b.JoinAsync("r");
        await vanisher.JoinAsync("r");
        await vanisher.SendRawAsync("half a li");
        vanisher.Vanish();
        Waiting.Until(() => server.Counters.Connections == 2, () => $"the vanished connection ends ({server.Counters})");
        await b.SendAsync("after");
        Assert.Equal($"{b.Id} after", await a.ReadLineAsync());
        await a.SendAsync("reply");
        Assert.Equal($"{a.Id} reply", await b.ReadLineAsync());
        await vanisher.DisposeAsync();
    }

    /// <summary>A connection whose code fails ends alone, and the room goes on.</summary>
    public static async Task ConnectionWhoseCodeFails_EndsAlone_TheRoomGoesOn(Func<ChatOptions, IChatServer> start, ChatOptions options)
    {
        using var server = start(With(options, failOn: "fail now"));
        await using var a = await ChatClient.ConnectAsync(server.Port);
        await using var failing = await ChatClient.ConnectAsync(server.Port);
        await using var c = await ChatClient.ConnectAsync(server.Port);
        await a.JoinAsync("r");
        await failing.JoinAsync("r");
        await c.JoinAsync("r");
        await failing.SendAsync("fail now");
        Assert.Null(await failing.ReadLineAsync());
        Waiting.Until(() => server.Counters is { Faulted: 1, Connections: 2 }, () => $"the failed connection is counted and ends ({server.Counters})");
        await a.SendAsync("still here");
        Assert.Equal($"{a.Id} still here", await c.ReadLineAsync());
    }

    /// <summary>Stopping the server closes every connection, idle or in a room, and no client is left waiting.</summary>
    public static async Task Dispose_ClosesEveryConnection(Func<ChatOptions, IChatServer> start, ChatOptions options)
    {
        const int Connections = 40;
        var server = start(options);
        var disposed = false;
        var clients = await Task.WhenAll(Enumerable.Range(0, Connections).Select(_ => ChatClient.ConnectAsync(server.Port)));
        try
        {
            // Half of them in rooms, with a line said there; the rest idle.
            await Task.WhenAll(clients.Take(Connections / 2).Select((client, i) => client.JoinAsync($"room {i % 2}")));
            await clients[0].SendAsync("before the end");
            await Task.WhenAll(clients.Skip(2).Take((Connections / 2) - 2).Where((_, i) => i % 2 == 0).Select(async c => Assert.Equal($"{clients[0].Id} before the end", await c.ReadLineAsync())));
            server.Dispose();
            disposed = true;
            foreach (var client in clients)
            {
                // What was queued may still arrive; then the end, never a wait past the timeout.
                while (await client.ReadLineAsync() is { } line)
                {
                    Assert.StartsWith($"{clients[0].Id} ", line, StringComparison.Ordinal);
                }
            }
        }
        finally
        {
            if (!disposed)
            {
                server.Dispose();
            }

            await DisposeAll(clients);
        }
    }

    private static (long Sender, string Text) ParseBroadcast(string line)
    {
        var space = line.IndexOf(' ', StringComparison.Ordinal);
        return (long.Parse(line[..space]), line[(space + 1)..]);
    }

    private static async Task<List<string>> ReadLinesAsync(ChatClient client, int count)
    {
        var lines = new List<string>(count);
        while (lines.Count < count)
        {
            lines.Add(await client.ReadLineAsync() ?? throw new InvalidOperationException($"client {client.Id} was closed after {lines.Count} of {count} lines"));
        }

        return lines;
    }

    private static async Task<List<string>> ReadUntilAsync(ChatClient client, string last, Action onLine)
    {
        var lines = new List<string>();
        while (await client.ReadLineAsync() is { } line && line != last)
        {
            lines.Add(line);
            onLine();
        }

        return lines;
    }

    private static async Task DisposeAll(IEnumerable<ChatClient> clients)
    {
        foreach (var client in clients)
        {
            await client.DisposeAsync();
        }
    }

    /// <summary>The options of a test: a free port, no idle timeout to speak of, the defaults otherwise.</summary>
    public static ChatOptions Options(int workers = 2, SchedulingPolicy policy = SchedulingPolicy.WorkStealing) =>
        new() { Port = 0, Workers = workers, Policy = policy, IdleTimeout = TimeSpan.FromMinutes(5) };

    private static ChatOptions With(ChatOptions options, TimeSpan? idleTimeout = null, int? outboundCapacity = null, string? failOn = null) =>
        new()
        {
            Port = options.Port,
            Workers = options.Workers,
            Policy = options.Policy,
            TimeProvider = options.TimeProvider,
            MaxLineBytes = options.MaxLineBytes,
            IdleTimeout = idleTimeout ?? options.IdleTimeout,
            OutboundCapacity = outboundCapacity ?? options.OutboundCapacity,
            FailOn = failOn ?? options.FailOn,
        };
}
