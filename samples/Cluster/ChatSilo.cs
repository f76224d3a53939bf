using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Orleans.Hosting;
using ThreadIterators.Orleans;

namespace ThreadIterators.Samples.Cluster;

/// <summary>
/// One silo of the sample: an Orleans silo on loopback with ThreadIterators added and the kind "room" registered, and
/// a chat front end, a TCP listener whose connections are green threads on the silo's scheduler.
/// </summary>
public sealed class ChatSilo : IAsyncDisposable
{
    private readonly IHost _host;
    private readonly TcpListener _listener;
    private long _lastId;

    private ChatSilo(IHost host, TcpListener listener, string name)
    {
        _host = host;
        _listener = listener;
        Name = name;
    }

    /// <summary>Gets the silo's name: the prefix of its connections' ids, and its scheduler's name.</summary>
    public string Name { get; }

    /// <summary>Gets the port of the chat front end on 127.0.0.1.</summary>
    public int ChatPort => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>Gets the silo's processes.</summary>
    public ClusterProcesses Processes => _host.Services.GetRequiredService<ClusterProcesses>();

    /// <summary>
    /// Starts a silo: the primary when <paramref name="primarySiloPort"/> is null (it keeps the cluster's membership
    /// table), else one that joins it.
    /// </summary>
    public static async Task<ChatSilo> StartAsync(string name, int siloPort, int gatewayPort, int? primarySiloPort, int chatPort, string clusterId)
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.UseOrleans(silo => silo
            .UseLocalhostClustering(siloPort, gatewayPort, primarySiloPort is { } primary ? new IPEndPoint(IPAddress.Loopback, primary) : null, "threaditerators-chat", clusterId)
            .AddThreadIterators(options =>
            {
                options.Scheduler = new SchedulerOptions { WorkerCount = 2, Name = name };
                options.AddProcess<RoomCommand>("room", Room.Run);
            }));
        var host = builder.Build();
        await host.StartAsync().ConfigureAwait(false);
        var listener = new TcpListener(IPAddress.Loopback, chatPort);
        listener.Start();
        var silo = new ChatSilo(host, listener, name);
        silo.Processes.Scheduler.Spawn(silo.Accept(), "acceptor");
        return silo;
    }

    /// <summary>Gets a TCP port free on 127.0.0.1 now, for a silo's or a gateway's endpoint.</summary>
    public static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    /// <summary>Stops the front end, then the silo, whose stop ends every connection's threads.</summary>
    public async ValueTask DisposeAsync()
    {
        _listener.Stop();
        await _host.StopAsync().ConfigureAwait(false);
        _host.Dispose();
    }

    private IEnumerable<Event> Accept()
    {
        var accept = new TaskEvent<TcpClient>();
        while (true)
        {
            yield return accept.For(_listener.AcceptTcpClientAsync());
            TcpClient client;
            try
            {
                client = accept.Result;
            }
            catch (Exception exception) when (exception is SocketException or ObjectDisposedException)
            {
                yield break;
            }

            var id = $"{Name}-{Interlocked.Increment(ref _lastId)}";
            Processes.Scheduler.Spawn(Connection.Serve(Processes, client, id), $"connection {id}");
        }
    }
}
