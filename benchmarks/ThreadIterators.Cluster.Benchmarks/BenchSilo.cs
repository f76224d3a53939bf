using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Orleans;
using Orleans.Hosting;
using ThreadIterators.Orleans;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>One node of the comparison: a silo on loopback with ThreadIterators added, in this process.</summary>
internal sealed class BenchSilo : IAsyncDisposable
{
    private readonly IHost _host;

    private BenchSilo(IHost host) => _host = host;

    public ClusterProcesses Processes => _host.Services.GetRequiredService<ClusterProcesses>();

    public IGrainFactory Grains => _host.Services.GetRequiredService<IGrainFactory>();

    public static async Task<BenchSilo> StartAsync(int siloPort, int gatewayPort, int? primaryPort, string clusterId, int workers)
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        builder.UseOrleans(silo => silo
            .UseLocalhostClustering(siloPort, gatewayPort, primaryPort is { } primary ? new IPEndPoint(IPAddress.Loopback, primary) : null, "threaditerators-cluster-bench", clusterId)
            .AddThreadIterators(options => options.Scheduler = new SchedulerOptions { WorkerCount = workers }));
        var host = builder.Build();
        await host.StartAsync().ConfigureAwait(false);
        return new BenchSilo(host);
    }

    public static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    public async ValueTask DisposeAsync()
    {
        await _host.StopAsync().ConfigureAwait(false);
        _host.Dispose();
    }

    /// <summary>The echo process: answers each ping to its sender.</summary>
    public static IEnumerable<Event> Echo(Mailbox<Ping> inbox)
    {
        var next = inbox.Recv();
        while (true)
        {
            yield return next;
            var ping = next.Value;
            ping.ReplyTo.Send(ping.Seq);
        }
    }

    /// <summary>The sink process: takes the stream, and acknowledges each message that asks for it.</summary>
    public static IEnumerable<Event> Sink(Mailbox<StreamItem> inbox)
    {
        var next = inbox.Recv();
        while (true)
        {
            yield return next;
            var item = next.Value;
            item.AckTo?.Send(item.Seq);
        }
    }
}
