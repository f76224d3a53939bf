using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// The chat server of samples/ChatServer written with async/await and System.Threading.Channels, as a careful .NET
/// developer would write it: the same protocol, limits and behaviour, a task per connection (and one writing to it)
/// and per room on the thread pool instead of green threads.
/// </summary>
public sealed class AsyncChatServer : IChatServer
{
    private readonly TcpListener _listener;
    private readonly CancellationTokenSource _stopping = new();

    /// <summary>The rooms with members, by name; guarded by itself. Joins and leaves only, never a line.</summary>
    private readonly Dictionary<string, AsyncRoom> _rooms = [];

    /// <summary>Open connections, so that disposal can close them.</summary>
    private readonly ConcurrentDictionary<AsyncConnection, byte> _open = new();

    private readonly Task _accepting;

    private long _lastId;

    /// <summary>Starts a server: listens at once and accepts on a task.</summary>
    /// <param name="options">The port and limits (its worker count and policy do not apply: the thread pool runs everything); the defaults if null.</param>
    public AsyncChatServer(ChatOptions? options = null)
    {
        Options = options ?? new ChatOptions();
        _listener = new TcpListener(IPAddress.Loopback, Options.Port);
        _listener.Start(backlog: 1024);
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _accepting = AcceptAsync();
    }

    /// <summary>Gets the limits the server runs with.</summary>
    public ChatOptions Options { get; }

    /// <inheritdoc/>
    public ChatCounters Counters { get; } = new();

    /// <inheritdoc/>
    public int Port { get; }

    /// <summary>Stops accepting and closes every connection.</summary>
    public void Dispose()
    {
        _stopping.Cancel();
        _listener.Stop();
        foreach (var connection in _open.Keys)
        {
            connection.Close();
        }

        try
        {
            _accepting.Wait(TimeSpan.FromSeconds(10));
        }
        catch (AggregateException)
        {
            // The accept loop ends with the listener's exception; nothing to report on the way out.
        }

        _stopping.Dispose();
    }

    /// <summary>Puts <paramref name="connection"/> in room <paramref name="name"/>, starting the room if it has no members.</summary>
    internal AsyncRoom Join(string name, AsyncConnection connection)
    {
        AsyncRoom room;
        lock (_rooms)
        {
            if (!_rooms.TryGetValue(name, out room!))
            {
                room = new AsyncRoom(name);
                _rooms.Add(name, room);
                _ = room.RunAsync();
                Counters.RoomOpened();
            }

            room.Registered++;
        }

        // Counted under the lock first, so the room cannot be ended while this join is on its way.
        room.Inbox.Writer.TryWrite(new AsyncRoomMessage(RoomMessageKind.Join, connection));
        return room;
    }

    /// <summary>Takes <paramref name="connection"/> out of <paramref name="room"/>; the last to leave ends the room.</summary>
    internal void Leave(AsyncRoom room, AsyncConnection connection)
    {
        room.Inbox.Writer.TryWrite(new AsyncRoomMessage(RoomMessageKind.Leave, connection));
        lock (_rooms)
        {
            if (--room.Registered == 0)
            {
                _rooms.Remove(room.Name);
                room.Inbox.Writer.TryComplete();
                Counters.RoomClosed();
            }
        }
    }

    /// <summary>Forgets a connection that has ended, reporting it if its code failed.</summary>
    internal void Closed(AsyncConnection connection, Exception? failure)
    {
        if (failure is not null)
        {
            Counters.Fault();
            Console.Error.WriteLine($"{connection} failed: {failure.Message}");
        }

        if (_open.TryRemove(connection, out _))
        {
            Counters.Closed();
        }
    }

    private async Task AcceptAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stopping.Token);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
            {
                // Stopped, or a connection reset before it was accepted.
                if (_stopping.IsCancellationRequested)
                {
                    return;
                }

                continue;
            }

            socket.NoDelay = true;
            var connection = new AsyncConnection(this, socket, ++_lastId);
            _open.TryAdd(connection, 0);
            Counters.Opened();
            _ = connection.RunAsync();
        }
    }
}
