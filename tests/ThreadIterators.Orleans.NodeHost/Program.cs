using System;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Orleans.Hosting;
using ThreadIterators.Orleans;
using ThreadIterators.Orleans.NodeHost;

// Usage: NodeHost <silo port> <gateway port> <primary silo port> <cluster id> [<process to link to>]
// Joins the cluster whose primary silo listens on the given port, prints "ready", and runs until killed. Given a
// process name, a green thread here links to that process first, and waits for ever.
var siloPort = int.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture);
var gatewayPort = int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture);
var primaryPort = int.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture);
var clusterId = args[3];

var builder = Host.CreateApplicationBuilder();
builder.UseOrleans(silo =>
{
    silo.UseLocalhostClustering(siloPort, gatewayPort, new IPEndPoint(IPAddress.Loopback, primaryPort), NodeCluster.ServiceId, clusterId);
    NodeCluster.ConfigureMembership(silo);
    silo.AddThreadIterators(options => options.AddProcess<int>("mortal", (_, inbox) => NodeCluster.EndsAsTold(inbox)));
});
using var host = builder.Build();
await host.StartAsync();

// A process that lives on this node, for the test to monitor from the other silo.
await host.Services.GetRequiredService<ClusterProcesses>().SpawnAsync<int>(NodeCluster.Resident, NodeCluster.EndsAsTold);
await host.Services.GetRequiredService<ClusterProcesses>().SpawnAsync<SilentRequest>(NodeCluster.Silent, NodeCluster.KeepsAsks);
if (args.Length > 4)
{
    var processes = host.Services.GetRequiredService<ClusterProcesses>();
    var linker = processes.Scheduler.Spawn(NodeCluster.WaitsForEver(), "linker");
    processes.Get<int>(args[4]).Link(linker);
}

Console.WriteLine(NodeCluster.Ready);
await Task.Delay(Timeout.Infinite);
