using System;
using System.Buffers;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// One client: a task that reads its lines and acts on them (<see cref="ServeAsync"/>), and a task that writes what is
/// said to it (<see cref="WriteAsync"/>) from its own bounded channel.
/// </summary>
internal sealed class AsyncConnection
{
    private readonly AsyncChatServer _server;
    private readonly Socket _socket;

    /// <summary>What is said to the client, in order; the writer's. Bounded: see <see cref="Say"/>.</summary>
    private readonly Channel<string> _outbox;

    /// <summary>The room the client is in, or null; the reading task's.</summary>
    private AsyncRoom? _room;

    /// <summary>1 once the outbox is completed: a write refused after that is not a slow client.</summary>
    private int _outboxDone;

    /// <summary>1 once the socket was closed, by whichever side got there first.</summary>
    private int _closed;

    internal AsyncConnection(AsyncChatServer server, Socket socket, long id)
    {
        _server = server;
        _socket = socket;
        Id = id;
        _outbox = Channel.CreateBounded<string>(new BoundedChannelOptions(server.Options.OutboundCapacity)
        {
            SingleReader = true,
            FullMode = BoundedChannelFullMode.Wait,
        });
    }

    /// <summary>Gets the number the server gave the client; every line it says is prefixed with it.</summary>
    internal long Id { get; }

    /// <summary>
    /// Queues <paramref name="line"/> for the client, without ever waiting. A client whose outbound channel is full has
    /// stopped reading: it is dropped (its socket closed at once, which ends both its tasks). Any thread.
    /// </summary>
    internal void Say(string line)
    {
        if (!_outbox.Writer.TryWrite(line) && Volatile.Read(ref _outboxDone) == 0 && Close())
        {
            _server.Counters.Dropped();
        }
    }

    /// <summary>Runs the connection: the reader here, the writer beside it; reports a failure of the reader's code.</summary>
    internal async Task RunAsync()
    {
        var writing = WriteAsync();
        Exception? failure = null;
        try
        {
            await ServeAsync();
        }
        catch (Exception e)
        {
            failure = e;
        }

        await writing;
        _server.Closed(this, failure);
    }

    /// <summary>Closes the socket, which fails the reader's and the writer's pending operations; true for the call that closed it. Any thread.</summary>
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

    /// <summary>Reads lines until the client quits, goes quiet for the idle timeout, sends too long a line or goes away.</summary>
    private async Task ServeAsync()
    {
        var options = _server.Options;

        // A line of the longest length, with "\r\n", fits; a buffer filled without a newline is too long a line.
        var size = options.MaxLineBytes + 2;
        byte[]? buffer = null;
        var filled = 0;
        using var idle = new CancellationTokenSource(Timeout.InfiniteTimeSpan, options.TimeProvider);
        try
        {
            Say($"/hello {Id}");
            while (true)
            {
                if (!idle.TryReset())
                {
                    return;
                }

                idle.CancelAfter(options.IdleTimeout);
                int received;
                try
                {
                    // Between lines, wait for bytes with a read of none, and borrow a buffer only once they are there,
                    // so that an idle client holds none.
                    if (buffer is null)
                    {
                        await _socket.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None, idle.Token);
                        buffer = ArrayPool<byte>.Shared.Rent(size);
                    }

                    received = await _socket.ReceiveAsync(buffer.AsMemory(filled, size - filled), SocketFlags.None, idle.Token);
                }
                catch (OperationCanceledException) when (idle.IsCancellationRequested)
                {
                    _server.Counters.Idle();
                    Say("/bye idle");
                    return;
                }
                catch (Exception e) when (e is SocketException or ObjectDisposedException)
                {
                    return;
                }

                if (received <= 0)
                {
                    return;
                }

                filled += received;
                var start = 0;
                while (Lines.TryTake(buffer, ref start, filled, out var line))
                {
                    _server.Counters.LineIn();
                    if (!Handle(line))
                    {
                        return;
                    }
                }

                filled -= start;
                if (filled == size)
                {
                    Say($"/bye line longer than {options.MaxLineBytes} bytes");
                    return;
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
            Volatile.Write(ref _outboxDone, 1);
            _outbox.Writer.TryComplete();
            if (_room is { } room)
            {
                _server.Leave(room, this);
            }
        }
    }

    /// <summary>Writes what is said to the client, many lines per send, until the outbox ends or the client goes away; then closes the socket.</summary>
    private async Task WriteAsync()
    {
        byte[]? buffer = null;
        var reader = _outbox.Reader;
        try
        {
            while (await reader.WaitToReadAsync())
            {
                var length = 0;
                var lines = 0;
                while (length < Lines.SendBatchBytes && reader.TryRead(out var line))
                {
                    length = Lines.Append(ref buffer, length, line);
                    lines++;
                }

                for (var offset = 0; offset < length;)
                {
                    int sent;
                    try
                    {
                        sent = await _socket.SendAsync(buffer.AsMemory(offset, length - offset), SocketFlags.None);
                    }
                    catch (Exception e) when (e is SocketException or ObjectDisposedException)
                    {
                        return;
                    }

                    if (sent <= 0)
                    {
                        return;
                    }

                    offset += sent;
                }

                _server.Counters.LinesWritten(lines);
                Lines.ReturnIfEmpty(ref buffer, 0);
            }
        }
        finally
        {
            Lines.ReturnIfEmpty(ref buffer, 0);
            Close();
        }
    }

    /// <summary>Acts on one line; false to close the connection.</summary>
    private bool Handle(string line)
    {
        if (_server.Options.FailOn is { } fail && line == fail)
        {
            throw new InvalidOperationException($"{this} was told to fail.");
        }

        if (!line.StartsWith('/'))
        {
            if (_room is null)
            {
                Say("/error join a room first: /join ROOM");
            }
            else
            {
                _room.Inbox.Writer.TryWrite(new AsyncRoomMessage(RoomMessageKind.Line, this, line));
            }

            return true;
        }

        if (line.StartsWith("/join ", StringComparison.Ordinal) && line[6..].Trim() is { Length: > 0 } name)
        {
            if (_room is not null)
            {
                _server.Leave(_room, this);
            }

            _room = _server.Join(name, this);
            return true;
        }

        switch (line)
        {
            case "/leave" when _room is not null:
                _server.Leave(_room, this);
                _room = null;
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
}
