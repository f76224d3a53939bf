using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Samples.Chat;

/// <summary>
/// One client: a green thread that reads its lines and acts on them (<see cref="Serve"/>), and a green thread that
/// writes what is said to it (<see cref="Write"/>), from its own bounded outbound mailbox. Both wait on the socket
/// through task events, so neither ever blocks a worker.
/// </summary>
internal sealed class Connection
{
    private readonly ChatServer _server;
    private readonly Socket _socket;

    /// <summary>What is said to the client, in order; the writer's. Bounded: see <see cref="Say"/>.</summary>
    private readonly Mailbox<string> _outbox;

    /// <summary>1 once the socket was closed, by whichever side got there first.</summary>
    private int _closed;

    /// <summary>
    /// With <see cref="ChatOptions.ReceiveHandled"/>, when the pending receive's task completed (Stopwatch ticks),
    /// written on the completing thread; 0 when there is none to report. The reader's otherwise.
    /// </summary>
    private long _receivedAt;

    internal Connection(ChatServer server, Socket socket, long id)
    {
        _server = server;
        _socket = socket;
        Id = id;
        _outbox = new Mailbox<string>(server.Options.OutboundCapacity);
    }

    /// <summary>Gets the number the server gave the client; every line it says is prefixed with it.</summary>
    internal long Id { get; }

    /// <summary>
    /// Queues <paramref name="line"/> for the client, without ever waiting. A client whose outbound mailbox is full has
    /// stopped reading: it is dropped (its socket closed at once, which ends both its threads) rather than let it hold
    /// an unbounded backlog. Any thread.
    /// </summary>
    internal void Say(string line)
    {
        if (!_outbox.TrySend(line) && !_outbox.IsCompleted && Close())
        {
            _server.Counters.Dropped();
        }
    }

    /// <summary>Reads lines until the client quits, goes quiet for the idle timeout, sends too long a line or goes away.</summary>
    internal IEnumerable<Event> Serve()
    {
        var options = _server.Options;

        // A line of the longest length, with "\r\n", fits; a buffer filled without a newline is too long a line.
        var size = options.MaxLineBytes + 2;
        byte[]? buffer = null;
        var filled = 0;
        var read = new TaskEvent<int>();
        var timedRead = read.WithTimeout(options.IdleTimeout);
        Room? room = null;
        try
        {
            Say($"/hello {Id}");
            while (true)
            {
                // Between lines, wait for bytes with a read of none, and borrow a buffer only once they are there, so
                // that an idle client holds none.
                if (!TryStart(read, buffer is null ? Memory<byte>.Empty : buffer.AsMemory(filled, size - filled), receive: true))
                {
                    yield break;
                }

                yield return timedRead;
                if (options.ReceiveHandled is { } probe)
                {
                    var receivedAt = Interlocked.Exchange(ref _receivedAt, 0);
                    if (receivedAt != 0)
                    {
                        probe(Stopwatch.GetTimestamp() - receivedAt);
                    }
                }

                if (timedRead.TimedOut)
                {
                    _server.Counters.Idle();
                    Say("/bye idle");
                    yield break;
                }

                var received = BytesOf(read);
                if (buffer is null)
                {
                    buffer = ArrayPool<byte>.Shared.Rent(size);
                    continue;
                }

                if (received <= 0)
                {
                    yield break;
                }

                filled += received;
                var start = 0;
                while (Lines.TryTake(buffer, ref start, filled, out var line))
                {
                    _server.Counters.LineIn();
                    if (!Handle(line, ref room))
                    {
                        yield break;
                    }
                }

                filled -= start;
                if (filled == size)
                {
                    Say($"/bye line longer than {options.MaxLineBytes} bytes");
                    yield break;
                }

                Buffer.BlockCopy(buffer, start, buffer, 0, filled);
                Lines.ReturnIfEmpty(ref buffer, filled);
            }
        }
        finally
        {
            Lines.ReturnIfEmpty(ref buffer, 0);

            // The writer sends what is queued (a goodbye, perhaps), then closes the socket. Completed before the leave,
            // so that nothing the room says afterwards follows the goodbye.
            _outbox.TryComplete();
            if (room is not null)
            {
                _server.Leave(room, this);
            }
        }
    }

    /// <summary>
    /// Writes what is said to the client until the outbox ends or the client goes away, then closes the socket and,
    /// as the connection's supervisor, waits for <paramref name="reader"/> (whose pending read the close ends) and
    /// reports it if its code failed.
    /// </summary>
    internal IEnumerable<Event> Write(GreenThread reader)
    {
        foreach (var wait in Drain())
        {
            yield return wait;
        }

        yield return reader.Ended;
        _server.Closed(this, reader.Outcome == ThreadOutcome.Faulted ? reader.Exception : null);
    }

    /// <summary>Writes the outbox's lines, many per send; closes the socket when done.</summary>
    private IEnumerable<Event> Drain()
    {
        byte[]? buffer = null;
        var send = new TaskEvent<int>();
        var next = _outbox.Recv();
        try
        {
            while (true)
            {
                Lines.ReturnIfEmpty(ref buffer, 0);
                yield return next;
                if (next.IsCompleted)
                {
                    yield break;
                }

                var length = Lines.Append(ref buffer, 0, next.Value);
                var lines = 1;
                while (length < Lines.SendBatchBytes && _outbox.TryRecv(out var more))
                {
                    length = Lines.Append(ref buffer, length, more);
                    lines++;
                }

                for (var offset = 0; offset < length;)
                {
                    if (!TryStart(send, buffer.AsMemory(offset, length - offset), receive: false))
                    {
                        yield break;
                    }

                    yield return send;
                    var sent = BytesOf(send);
                    if (sent <= 0)
                    {
                        yield break;
                    }

                    offset += sent;
                }

                _server.Counters.LinesWritten(lines);
            }
        }
        finally
        {
            Lines.ReturnIfEmpty(ref buffer, 0);
            Close();
        }
    }

    /// <summary>Closes the socket, which fails the reader's and the writer's pending waits; true for the call that closed it. Any thread.</summary>
    internal bool Close()
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
        {
            return false;
        }

        try
        {
            // Send what is written, then the end, rather than reset a connection whose reads are still pending.
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (SocketException)
        {
            // The client is gone already.
        }

        _socket.Dispose();
        return true;
    }

    /// <inheritdoc/>
    public override string ToString() => $"connection {Id}";

    /// <summary>The bytes a finished receive or send moved: 0 when the client went away or the socket was closed.</summary>
    private static int BytesOf(TaskEvent<int> wait)
    {
        try
        {
            return wait.Result;
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
        {
            return 0;
        }
    }

    /// <summary>Acts on one line; false to close the connection.</summary>
    private bool Handle(string line, ref Room? room)
    {
        if (_server.Options.FailOn is { } fail && line == fail)
        {
            throw new InvalidOperationException($"{this} was told to fail.");
        }

        if (!line.StartsWith('/'))
        {
            if (room is null)
            {
                Say("/error join a room first: /join ROOM");
            }
            else
            {
                room.Inbox.Send(new RoomMessage(RoomMessageKind.Line, this, line));
            }

            return true;
        }

        if (line.StartsWith("/join ", StringComparison.Ordinal) && line[6..].Trim() is { Length: > 0 } name)
        {
            if (room is not null)
            {
                _server.Leave(room, this);
            }

            room = _server.Join(name, this);
            return true;
        }

        switch (line)
        {
            case "/leave" when room is not null:
                _server.Leave(room, this);
                room = null;
                return true;
            case "/leave":
                Say("/error not in a room");
                return true;
            case "/quit":
                Say("/bye");
                return false;
            default:
                Say("/error unknown command; commands: /join ROOM, /leave, /quit");
                return true;
        }
    }

    /// <summary>
    /// Arms <paramref name="wait"/> with a receive into, or a send of, <paramref name="bytes"/>; false if the socket is
    /// closed already. Apart from the yield, because an iterator cannot yield inside a try with a catch.
    /// </summary>
    private bool TryStart(TaskEvent<int> wait, Memory<byte> bytes, bool receive)
    {
        try
        {
            if (!receive)
            {
                wait.For(_socket.SendAsync(bytes, SocketFlags.None));
                return true;
            }

            var received = _socket.ReceiveAsync(bytes, SocketFlags.None);
            wait.For(_server.Options.ReceiveHandled is null || received.IsCompleted ? received : Stamped(received));
            return true;
        }
        catch (ObjectDisposedException)
        {
            return false;
        }
    }

    /// <summary>
    /// Awaits a pending receive on the thread that completes it and notes the time there, for the probe: the green
    /// thread's wait is on this method's task, whose completion follows at once on the same thread.
    /// </summary>
    private async ValueTask<int> Stamped(ValueTask<int> receive)
    {
        var bytes = await receive.ConfigureAwait(false);
        Volatile.Write(ref _receivedAt, Stopwatch.GetTimestamp());
        return bytes;
    }
}
