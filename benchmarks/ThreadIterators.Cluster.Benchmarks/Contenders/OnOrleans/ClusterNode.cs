using System;
using System.Globalization;
using System.Linq;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>
/// <c>cluster-node SILO_PORT GATEWAY_PORT PRIMARY_PORT CLUSTER_ID WORKERS ROLE [ARG]</c>: a node of the Orleans
/// contenders in a process of its own, joined to the first node's cluster. As the <c>peer</c> (ARG: the ring sizes,
/// comma-separated) it starts the echo and sink processes, activates the raw echo grain on itself, and takes the odd
/// forwarders of each ring, green and raw. As the <c>victim</c> (ARG: a process name) it runs one process of that
/// name, to be watched and killed. It prints "ready" and runs until its standard input closes.
/// </summary>
internal static class ClusterNode
{
    public const string Command = "cluster-node";

    public const string Peer = "peer";

    public const string VictimRole = "victim";

    public static async Task<int> RunAsync(string[] args)
    {
        var siloPort = int.Parse(args[1], CultureInfo.InvariantCulture);
        var gatewayPort = int.Parse(args[2], CultureInfo.InvariantCulture);
        var primaryPort = int.Parse(args[3], CultureInfo.InvariantCulture);
        var workers = int.Parse(args[5], CultureInfo.InvariantCulture);
        await using var silo = await BenchSilo.StartAsync(siloPort, gatewayPort, primaryPort, args[4], workers).ConfigureAwait(false);
        if (args[6] == VictimRole)
        {
            await silo.Processes.SpawnAsync<int>(args[7], BenchSilo.Victim).ConfigureAwait(false);
        }
        else
        {
            await silo.Processes.SpawnAsync<Ping>("echo", BenchSilo.Echo).ConfigureAwait(false);
            await silo.Processes.SpawnAsync<StreamItem>("sink", BenchSilo.Sink).ConfigureAwait(false);

            // Placed here, by its first call coming from here.
            await silo.Grains.GetGrain<IEchoGrain>("echo").Ping(0).ConfigureAwait(false);
            foreach (var size in args[7].Split(',').Select(s => int.Parse(s, CultureInfo.InvariantCulture)))
            {
                for (var i = 1; i < size; i += 2)
                {
                    var next = silo.Processes.Get<long>(BenchSilo.RingName(size, (i + 1) % size));
                    await silo.Processes.SpawnAsync<long>(BenchSilo.RingName(size, i), inbox => BenchSilo.Forwarder(inbox, next, done: null)).ConfigureAwait(false);
                    await silo.Grains.GetGrain<IRingGrain>(RingGrain.Key(size, i)).Place().ConfigureAwait(false);
                }
            }
        }

        Console.WriteLine(NodeProcess.Ready);
        await NodeProcess.WaitForParentAsync().ConfigureAwait(false);
        return 0;
    }
}
