using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;

namespace ThreadIterators.Samples.Chat;

/// <summary>
/// A line-based chat server on 127.0.0.1, one green thread per connection (and one writing to it) and one per room.
/// The protocol is in the sample's README.
/// </summary>
public sealed class ChatServer : IChatServer
{
    private readonly Scheduler _scheduler;
    private readonly TcpListener _listener;

    /// <summary>The rooms with members, by name; guarded by itself. Joins and leaves only, never a line.</summary>
    private readonly Dictionary<string, Room> _rooms = [];

    private long _lastId;

    /// <summary>Starts a server: listens at once and accepts on a green thread.</summary>
    /// <param name="options">The port and limits; the defaults if null.</param>
    public ChatServer(ChatOptions? options = null)
    {
        Options = options ?? new ChatOptions();
        _scheduler = new Scheduler(new SchedulerOptions { WorkerCount = Options.Workers, Policy = Options.Policy, TimeProvider = Options.TimeProvider });
        _listener = new TcpListener(IPAddress.Loopback, Options.Port);
        _listener.Start(backlog: 1024);
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _scheduler.Spawn(Accept(), "acceptor");
    }

    /// <summary>Gets the limits the server runs with.</summary>
    public ChatOptions Options { get; }

    /// <inheritdoc/>
    public ChatCounters Counters { get; } = new();

    /// <inheritdoc/>
    public int Port { get; }

    /// <summary>Gets the scheduler the server's green threads run on; for the benchmarks' probe, which runs a heartbeat beside them.</summary>
    internal Scheduler Scheduler => _scheduler;

    /// <summary>Stops the green threads, which closes every connection (each writer's finally block closes its socket), then stops listening.</summary>
    public void Dispose()
    {
        // The scheduler knows every thread it runs, so no list of open connections is kept for this.
        _scheduler.Dispose();
        _listener.Stop();
    }

    /// <summary>Puts <paramref name="connection"/> in room <paramref name="name"/>, starting the room if it has no members.</summary>
    internal Room Join(string name, Connection connection)
    {
        Room room;
        lock (_rooms)
        {
            if (!_rooms.TryGetValue(name, out room!))
            {
                room = new Room(name);
                _rooms.Add(name, room);
                _scheduler.Spawn(room.Run());
                Counters.RoomOpened();
            }

            room.Registered++;
        }

        // Counted under the lock first, so the room cannot be ended while this join is on its way.
        room.Inbox.Send(new RoomMessage(RoomMessageKind.Join, connection));
        return room;
    }

    /// <summary>Takes <paramref name="connection"/> out of <paramref name="room"/>; the last to leave ends the room.</summary>
    internal void Leave(Room room, Connection connection)
    {
        room.Inbox.Send(new RoomMessage(RoomMessageKind.Leave, connection));
        lock (_rooms)
        {
            if (--room.Registered == 0)
            {
                _rooms.Remove(room.Name);
                room.Inbox.Complete();
                Counters.RoomClosed();
            }
        }
    }

    /// <summary>Forgets a connection whose threads have both ended, reporting it if its code failed (it ended alone: its finally blocks left its room and closed its socket).</summary>
    internal void Closed(Connection connection, Exception? failure)
    {
        if (failure is not null)
        {
            Counters.Fault();
            Console.Error.WriteLine($"{connection} failed: {failure.Message}");
        }

        Counters.Closed();
    }

    private IEnumerable<Event> Accept()
    {
        // Runs until the scheduler's disposal stops it, before the listener is stopped.
        var accept = new TaskEvent<Socket>();
        while (true)
        {
            yield return accept.For(_listener.AcceptSocketAsync());
            Socket socket;
            try
            {
                socket = accept.Result;
            }
            catch (SocketException)
            {
                // A connection reset before it was accepted.
                continue;
            }

            socket.NoDelay = true;
            var connection = new Connection(this, socket, ++_lastId);
            Counters.Opened();
            var reader = _scheduler.Spawn(connection.Serve());
            _scheduler.Spawn(connection.Write(reader));
        }
    }
}
