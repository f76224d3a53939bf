using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Tests;

/// <summary>
/// A deliberately broken chat server: a proxy in front of a good one that, on the first connection it accepts, drops,
/// swaps or repeats the fifth and sixth broadcast lines the server sends. The load client must notice.
/// </summary>
public sealed class SabotagingProxy : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly int _upstream;
    private readonly Sabotage _sabotage;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Socket> _sockets = [];
    private int _accepted;

    internal SabotagingProxy(int upstream, Sabotage sabotage)
    {
        _upstream = upstream;
        _sabotage = sabotage;
        _listener.Start(1024);
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _ = AcceptAsync();
    }

    public enum Sabotage
    {
        DropALine,
        SwapTwoLines,
        RepeatALine,
    }

    internal int Port { get; }

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Stop();
        lock (_sockets)
        {
            foreach (var socket in _sockets)
            {
                socket.Dispose();
            }
        }
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or OperationCanceledException)
            {
                return;
            }

            var server = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            await server.ConnectAsync(IPAddress.Loopback, _upstream);
            lock (_sockets)
            {
                _sockets.Add(client);
                _sockets.Add(server);
            }

            var saboteur = _accepted++ == 0;
            _ = CopyAsync(client, server);
            _ = ForwardLinesAsync(server, client, saboteur);
        }
    }

    private static async Task CopyAsync(Socket from, Socket to)
    {
        var buffer = new byte[16 * 1024];
        try
        {
            int read;
            while ((read = await from.ReceiveAsync(buffer, SocketFlags.None)) > 0)
            {
                await to.SendAsync(buffer.AsMemory(0, read), SocketFlags.None);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
        }
    }

    private async Task ForwardLinesAsync(Socket from, Socket to, bool saboteur)
    {
        var broadcasts = 0;
        string? held = null;
        try
        {
            using var reader = new StreamReader(new NetworkStream(from, ownsSocket: false), new UTF8Encoding(false));
            while (await reader.ReadLineAsync() is { } line)
            {
                if (saboteur && !line.StartsWith('/') && ++broadcasts is 5 or 6)
                {
                    switch (_sabotage)
                    {
                        case Sabotage.DropALine when broadcasts == 5:
                            continue;
                        case Sabotage.SwapTwoLines when broadcasts == 5:
                            held = line;
                            continue;
                        case Sabotage.SwapTwoLines:
                            await SendAsync(to, line);
                            line = held!;
                            break;
                        case Sabotage.RepeatALine when broadcasts == 5:
                            await SendAsync(to, line);
                            break;
                    }
                }

                await SendAsync(to, line);
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or IOException)
        {
        }
    }

    private static async Task SendAsync(Socket to, string line) => await to.SendAsync(Encoding.UTF8.GetBytes(line + "\n"), SocketFlags.None);
}
