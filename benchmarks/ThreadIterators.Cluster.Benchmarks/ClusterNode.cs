using System;
using System.Globalization;
using System.Threading.Tasks;
using ThreadIterators.Orleans;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>
/// <c>cluster-node SILO_PORT GATEWAY_PORT PRIMARY_PORT CLUSTER_ID WORKERS</c>: the comparison's second node, in a
/// process of its own. It joins the first node's cluster, starts the echo and sink processes and activates the raw
/// Orleans echo grain on itself, prints "ready", and runs until its standard input closes.
/// </summary>
internal static class ClusterNode
{
    public const string Command = "cluster-node";

    public const string Ready = "ready";

    public static async Task<int> RunAsync(string[] args)
    {
        var siloPort = int.Parse(args[1], CultureInfo.InvariantCulture);
        var gatewayPort = int.Parse(args[2], CultureInfo.InvariantCulture);
        var primaryPort = int.Parse(args[3], CultureInfo.InvariantCulture);
        var workers = int.Parse(args[5], CultureInfo.InvariantCulture);
        await using var silo = await BenchSilo.StartAsync(siloPort, gatewayPort, primaryPort, args[4], workers).ConfigureAwait(false);
        await silo.Processes.SpawnAsync<Ping>("echo", BenchSilo.Echo).ConfigureAwait(false);
        await silo.Processes.SpawnAsync<StreamItem>("sink", BenchSilo.Sink).ConfigureAwait(false);

        // Placed here, by its first call coming from here.
        await silo.Grains.GetGrain<IEchoGrain>("echo").Ping(0).ConfigureAwait(false);
        Console.WriteLine(Ready);
        while (await Console.In.ReadLineAsync().ConfigureAwait(false) is not null)
        {
        }

        return 0;
    }
}
