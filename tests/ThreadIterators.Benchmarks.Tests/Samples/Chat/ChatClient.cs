using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;

namespace ThreadIterators.Tests;

/// <summary>A test's client of the chat protocol: lines in and out, every read bounded by the tests' generous timeout.</summary>
internal sealed class ChatClient : IAsyncDisposable
{
    private readonly Socket _socket;
    private readonly StreamReader _reader;
    private readonly NetworkStream _stream;

    private ChatClient(Socket socket)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _reader = new StreamReader(_stream, new UTF8Encoding(false));
    }

    /// <summary>Gets the number the server gave this client, from its greeting.</summary>
    public long Id { get; private set; }

    /// <summary>Connects and reads the greeting.</summary>
    public static async Task<ChatClient> ConnectAsync(int port, int receiveBufferBytes = 0)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        if (receiveBufferBytes > 0)
        {
            socket.ReceiveBufferSize = receiveBufferBytes;
        }

        await socket.ConnectAsync(IPAddress.Loopback, port).WaitAsync(Waiting.Timeout);
        var client = new ChatClient(socket);
        var hello = await client.ReadLineAsync();
        Assert.StartsWith("/hello ", hello, StringComparison.Ordinal);
        client.Id = long.Parse(hello!["/hello ".Length..]);
        return client;
    }

    /// <summary>Sends one line.</summary>
    public Task SendAsync(string line) => SendRawAsync(line + "\n");

    /// <summary>Sends text as it is, without a newline.</summary>
    public async Task SendRawAsync(string text) => await _stream.WriteAsync(Encoding.UTF8.GetBytes(text)).AsTask().WaitAsync(Waiting.Timeout);

    /// <summary>Reads the next line, or null at the end of the connection; fails the test if none comes in the timeout.</summary>
    public async Task<string?> ReadLineAsync()
    {
        try
        {
            return await _reader.ReadLineAsync().WaitAsync(Waiting.Timeout);
        }
        catch (IOException)
        {
            return null;
        }
    }

    /// <summary>Joins <paramref name="room"/> and waits for the server's confirmation.</summary>
    public async Task JoinAsync(string room)
    {
        await SendAsync($"/join {room}");
        Assert.Equal($"/joined {room}", await ReadLineAsync());
    }

    /// <summary>Closes at once, as a client that vanishes does.</summary>
    public void Vanish() => _socket.Close(0);

    public async ValueTask DisposeAsync()
    {
        await _stream.DisposeAsync();
        _reader.Dispose();
    }
}
