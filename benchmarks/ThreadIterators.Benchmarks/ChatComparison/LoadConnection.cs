using System;
using System.Buffers.Text;
using System.Collections.Generic;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// One connection of the load client: sends its numbered, timestamped lines and checks every line it receives, from
/// each other member of its room, arrives once and in that member's order.
/// </summary>
internal sealed class LoadConnection : IDisposable
{
    private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
    private readonly ChatLoadRun _run;
    private readonly byte[] _buffer = new byte[64 * 1024];
    private readonly SemaphoreSlim _credits;

    /// <summary>The next line number expected from each other member, by the member's id.</summary>
    private Dictionary<long, int> _next = [];

    private int _start;
    private int _filled;
    private long _received;
    private long _expected;
    private int _othersPerCredit;

    internal LoadConnection(ChatLoadRun run, int index, int window, LoadRole role)
    {
        _run = run;
        Index = index;
        Role = role;
        _credits = new SemaphoreSlim(window);
        if (role == LoadRole.Stalled)
        {
            // Fills sooner: the server's backlog for it builds up in its outbound mailbox, not in socket buffers.
            _socket.ReceiveBufferSize = 4096;
        }
    }

    internal int Index { get; }

    internal LoadRole Role { get; }

    /// <summary>Gets the id the server gave the connection.</summary>
    internal long Id { get; private set; }

    /// <summary>Gets the lines received from the other members so far.</summary>
    internal long Received => Volatile.Read(ref _received);

    /// <summary>Gets the lines expected from the other members.</summary>
    internal long Expected => _expected;

    /// <summary>Connects and reads the server's greeting; false, counting an error, if either fails.</summary>
    internal async Task<bool> ConnectAsync(int port)
    {
        try
        {
            await _socket.ConnectAsync(IPAddress.Loopback, port);
            var hello = await ReadLineAsync();
            if (hello is null || !hello.StartsWith("/hello ", StringComparison.Ordinal) || !long.TryParse(hello.AsSpan(7), out var id))
            {
                return Fail($"greeted with '{hello}'");
            }

            Id = id;
            return true;
        }
        catch (SocketException e)
        {
            return Fail(e.Message);
        }
    }

    /// <summary>Joins <paramref name="room"/>; false, counting an error, if the server does not confirm it.</summary>
    internal async Task<bool> JoinAsync(string room, IEnumerable<long> others, int lines)
    {
        _next = [];
        foreach (var other in others)
        {
            _next.Add(other, 0);
        }

        _expected = (long)_next.Count * lines;
        _othersPerCredit = Math.Max(1, _next.Count);
        try
        {
            await SendTextAsync($"/join {room}\n");
            var joined = await ReadLineAsync();
            return joined == $"/joined {room}" || Fail($"answered '{joined}' to /join {room}");
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return Fail(e.Message);
        }
    }

    /// <summary>Sends <paramref name="lines"/> lines, each its number and the moment it is sent, at <paramref name="rate"/> per second or as fast as the window allows.</summary>
    internal async Task SendAsync(int lines, double rate, long start, int lineBytes)
    {
        var line = new byte[Math.Max(48, lineBytes + 1)];
        try
        {
            for (var k = 0; k < lines; k++)
            {
                if (rate > 0)
                {
                    var due = start + (long)(k / rate * Stopwatch.Frequency);
                    var ahead = due - Stopwatch.GetTimestamp();
                    if (ahead > 0)
                    {
                        await Task.Delay(TimeSpan.FromSeconds((double)ahead / Stopwatch.Frequency));
                    }
                }
                else if (_next.Count > 0)
                {
                    await _credits.WaitAsync(_run.Stopping);
                }

                Utf8Formatter.TryFormat(k, line, out var length);
                line[length++] = (byte)' ';
                Utf8Formatter.TryFormat(Stopwatch.GetTimestamp(), line.AsSpan(length), out var written);
                length += written;
                if (length < lineBytes)
                {
                    line[length++] = (byte)' ';
                    line.AsSpan(length, lineBytes - length).Fill((byte)'x');
                    length = lineBytes;
                }

                line[length++] = (byte)'\n';
                await _socket.SendAsync(line.AsMemory(0, length), SocketFlags.None);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
        {
            // The run stopped, or the server closed the connection: the receiving side counts it.
        }
    }

    /// <summary>Sends half a line, then resets the connection, as a client whose machine went away.</summary>
    internal async Task VanishAsync()
    {
        try
        {
            await SendTextAsync("half a li");
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
        }

        _socket.Close(0);
    }

    /// <summary>Receives until every expected line has come, the server closes the connection, or the run stops.</summary>
    internal async Task ReceiveAsync()
    {
        try
        {
            while (Received < _expected)
            {
                if (!TakeLines())
                {
                    return;
                }

                if (Received >= _expected)
                {
                    return;
                }

                if (!await FillAsync())
                {
                    Fail("closed by the server");
                    return;
                }
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
        {
            if (!_run.Stopping.IsCancellationRequested)
            {
                Fail(e.Message);
            }
        }
    }

    public void Dispose()
    {
        _socket.Dispose();
        _credits.Dispose();
    }

    private bool Fail(string why)
    {
        _run.ConnectionError($"connection {Index} (id {Id}): {why}");
        return false;
    }

    /// <summary>Checks every whole line in the buffer; false if one is not a broadcast (the server said goodbye or an error).</summary>
    private bool TakeLines()
    {
        int end;
        while ((end = Array.IndexOf(_buffer, (byte)'\n', _start, _filled - _start)) >= 0)
        {
            var line = _buffer.AsSpan(_start, end - _start);
            _start = end + 1;
            if (!Check(line))
            {
                return false;
            }
        }

        return true;
    }

    private bool Check(ReadOnlySpan<byte> line)
    {
        var now = Stopwatch.GetTimestamp();
        if (!Utf8Parser.TryParse(line, out long sender, out var used) || used >= line.Length
            || !Utf8Parser.TryParse(line[(used + 1)..], out int number, out var used2)
            || !Utf8Parser.TryParse(line[(used + 1 + used2 + 1)..], out long sent, out _))
        {
            return Fail($"received '{Encoding.UTF8.GetString(line)}'");
        }

        if (!_next.TryGetValue(sender, out var expected) || number != expected)
        {
            // A line twice, out of its sender's order, or from a connection not in the room.
            _run.Misordered();
        }

        if (_next.ContainsKey(sender) && number >= expected)
        {
            _next[sender] = number + 1;
        }

        _run.Delivered(now, (now - sent) * 1_000_000 / Stopwatch.Frequency);
        if (Interlocked.Increment(ref _received) % _othersPerCredit == 0)
        {
            _credits.Release();
        }

        return true;
    }

    private async Task<string?> ReadLineAsync()
    {
        while (true)
        {
            var end = Array.IndexOf(_buffer, (byte)'\n', _start, _filled - _start);
            if (end >= 0)
            {
                var line = Encoding.UTF8.GetString(_buffer, _start, end - _start);
                _start = end + 1;
                return line;
            }

            if (!await FillAsync())
            {
                return null;
            }
        }
    }

    /// <summary>Moves what is left of a line to the front and receives more; false at the end of the connection.</summary>
    private async Task<bool> FillAsync()
    {
        if (_start > 0)
        {
            Buffer.BlockCopy(_buffer, _start, _buffer, 0, _filled - _start);
            _filled -= _start;
            _start = 0;
        }

        if (_filled == _buffer.Length)
        {
            return Fail("a line longer than the client's buffer");
        }

        var received = await _socket.ReceiveAsync(_buffer.AsMemory(_filled), SocketFlags.None, _run.Stopping);
        _filled += received;
        return received > 0;
    }

    private async Task SendTextAsync(string text) => await _socket.SendAsync(Encoding.UTF8.GetBytes(text), SocketFlags.None);
}
