using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Orleans;
using Orleans.Configuration;
using Orleans.Hosting;
using Orleans.Runtime;
using ThreadIterators.Orleans;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>One node of the Orleans contenders: a silo on loopback with ThreadIterators added, in this process.</summary>
internal sealed class BenchSilo : IAsyncDisposable
{
    /// <summary>The probe timeout of the silos' failure detection.</summary>
    public static readonly TimeSpan ProbeTimeout = TimeSpan.FromSeconds(1);

    /// <summary>How many probes in a row a silo may miss before it is declared dead.</summary>
    public const int MissedProbes = 2;

    /// <summary>
    /// The grain directory of the raw Orleans peer's grains: Orleans' strongly consistent one, as the green processes'
    /// is, so that a killed third silo's part of the directory is not lost. With the default directory, a grain whose
    /// entry the killed silo held was made again on its next caller's silo, and the raw figures measured local calls.
    /// </summary>
    public const string RawDirectory = "raw-grains";

    private readonly IHost _host;

    private BenchSilo(IHost host) => _host = host;

    public ClusterProcesses Processes => _host.Services.GetRequiredService<ClusterProcesses>();

    public IGrainFactory Grains => _host.Services.GetRequiredService<IGrainFactory>();

    /// <summary>Gets the address of this silo, as a grain's runtime prints it.</summary>
    public string Address => _host.Services.GetRequiredService<ILocalSiloDetails>().SiloAddress.ToString();

    public IClusterMembershipService Membership => _host.Services.GetRequiredService<IClusterMembershipService>();

    public static async Task<BenchSilo> StartAsync(int siloPort, int gatewayPort, int? primaryPort, string clusterId, int workers)
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
#pragma warning disable ORLEANSEXP003 // Experimental in Orleans 10; the directory the green processes use too (RawDirectory says why).
        builder.UseOrleans(silo => silo
            .UseLocalhostClustering(siloPort, gatewayPort, primaryPort is { } primary ? new IPEndPoint(IPAddress.Loopback, primary) : null, "threaditerators-cluster-bench", clusterId)
            .Configure<ClusterMembershipOptions>(options =>
            {
                // Failure detection as fast as loopback allows, instead of Orleans' defaults (a 5 s probe timeout and 3
                // missed probes, with 2 votes): the node-down workload waits for it. Each silo probes one other, and
                // one vote declares a silo dead.
                options.ProbeTimeout = ProbeTimeout;
                options.NumMissedProbesLimit = MissedProbes;
                options.NumVotesForDeathDeclaration = 1;
                options.NumProbedSilos = 1;
            })
            .AddDistributedGrainDirectory(RawDirectory)
            .AddThreadIterators(options => options.Scheduler = new SchedulerOptions { WorkerCount = workers }));
#pragma warning restore ORLEANSEXP003
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

    /// <summary>The name of forwarder <paramref name="index"/> of the green ring of <paramref name="size"/>.</summary>
    public static string RingName(int size, int index) => RingGrain.Key(size, index);

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

    /// <summary>
    /// The sink process: takes each stream, checking that every message is the next in order (a stream starts at 0),
    /// and acknowledges a message that asks for it with how many it has taken in order, or -1 once one was not.
    /// </summary>
    public static IEnumerable<Event> Sink(Mailbox<StreamItem> inbox)
    {
        var next = inbox.Recv();
        var expected = 0L;
        var broken = false;
        while (true)
        {
            yield return next;
            var item = next.Value;
            if (item.Seq == 0)
            {
                (expected, broken) = (0, false);
            }

            broken |= item.Seq != expected;
            expected++;
            item.AckTo?.Send(broken ? -1 : expected);
        }
    }

    /// <summary>
    /// A forwarder of the green ring: passes the token on to <paramref name="next"/> with one hop fewer, or calls
    /// <paramref name="done"/> when it has none left.
    /// </summary>
    public static IEnumerable<Event> Forwarder(Mailbox<long> inbox, ProcessRef<long> next, Action? done)
    {
        var token = inbox.Recv();
        while (true)
        {
            yield return token;
            var left = token.Value;
            if (left == 0)
            {
                done?.Invoke();
            }
            else
            {
                next.Send(left - 1);
            }
        }
    }

    /// <summary>The node-down workload's victim: a process that only waits, on the node that will be killed.</summary>
    public static IEnumerable<Event> Victim(Mailbox<int> inbox)
    {
        while (true)
        {
            yield return inbox.Recv();
        }
    }
}
