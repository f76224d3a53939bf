using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Orleans.Hosting;
using Orleans.Runtime;
using ThreadIterators.Orleans.NodeHost;
using Xunit.Abstractions;

namespace ThreadIterators.Orleans.Tests;

/// <summary>
/// A node that dies for real: a silo in a process of its own, joined to a silo in this one on loopback TCP, and killed
/// with its process, so nothing on it runs on the way out. Only Orleans' membership can tell the survivors.
/// </summary>
public sealed class NodeDownTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(120);

    [Fact]
    public async Task AProcessOnANodeThatIsKilled_ItsMonitorsHearNodeDown_AndAsksOfItFail_FromOrleansMembership()
    {
        var clusterId = $"nodedown-{Guid.NewGuid():N}";
        var (primarySilo, primaryGateway, nodeSilo, nodeGateway) = (FreePort(), FreePort(), FreePort(), FreePort());
        var builder = Host.CreateApplicationBuilder();
        builder.UseOrleans(silo =>
        {
            silo.UseLocalhostClustering(primarySilo, primaryGateway, null, NodeCluster.ServiceId, clusterId);
            NodeCluster.ConfigureMembership(silo);
            silo.AddThreadIterators();
        });
        using var primary = builder.Build();
        await primary.StartAsync();
        using var node = await StartNode(nodeSilo, nodeGateway, primarySilo, clusterId);
        try
        {
            var processes = primary.Services.GetRequiredService<ClusterProcesses>();
            var (monitor, got) = Watch(processes, NodeCluster.Resident);
            await LifetimeTests.WaitUntil(() => monitor.HasFired || processes.Node().Monitors.HostOf(monitor) is not null);
            Assert.False(monitor.HasFired, "The monitor fired before the node was killed.");

            // A thread linked to the node's process: stopped when the node goes.
            var release = new Mailbox<int>();
            IEnumerable<Event> Linked()
            {
                yield return release.Recv();
            }

            var linked = processes.Scheduler.Spawn(Linked(), "linked");
            var link = processes.Get<int>(NodeCluster.Resident).Link(linked);
            await LifetimeTests.WaitUntil(() => link.HasFired || (link.Monitor is { } m && processes.Node().Monitors.HostOf(m) is not null));
            Assert.False(link.HasFired, "The link fired before the node was killed.");

            // An ask the node's silent process has taken, and will never answer.
            var silent = processes.Get<SilentRequest>(NodeCluster.Silent);
            var ask = silent.AskAsync<int>(reply => new SilentRequest(reply), Generous);
            await LifetimeTests.WaitUntil(() => processes.Node().HasLinkTo(silent.Name) && processes.Node().LinkIsIdle(silent.Name));
            Assert.False(ask.IsCompleted, "The silent process answered.");

            var clock = Stopwatch.StartNew();
            node.Kill(entireProcessTree: true);
            var down = await got.Task.WaitAsync(Generous);
            clock.Stop();

            Assert.True(down.Reason == ProcessExitReason.NodeDown, $"{down}");
            await linked.AsTask().ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Generous);
            Assert.Equal(ThreadOutcome.Canceled, linked.Outcome);
            Assert.Contains(nameof(ProcessExitReason.NodeDown), linked.Exception?.Message ?? string.Empty, StringComparison.Ordinal);
            var failed = await Assert.ThrowsAsync<ProcessEndedException>(() => ask.WaitAsync(Generous));
            Assert.Equal(ProcessExitReason.NodeDown, failed.Reason);
            Assert.Equal(processes.Node().Monitors.HostOf(monitor)!.ToString(), down.Silo);
            output.WriteLine($"node-down heard {clock.ElapsedMilliseconds} ms after the kill (probe timeout 1 s, 2 missed probes)");
        }
        finally
        {
            if (!node.HasExited)
            {
                node.Kill(entireProcessTree: true);
            }

            await primary.StopAsync();
        }
    }

    [Fact]
    public async Task AClientOutsideTheCluster_HearsNodeDown_InItsMonitorsLinksAndAsks_FromAGatewaysViewOfTheMembership()
    {
        var clusterId = $"clientdown-{Guid.NewGuid():N}";
        var (primarySilo, primaryGateway, nodeSilo, nodeGateway) = (FreePort(), FreePort(), FreePort(), FreePort());
        using var primary = BuildSilo(primarySilo, primaryGateway, null, clusterId);
        await primary.StartAsync();
        using var node = await StartNode(nodeSilo, nodeGateway, primarySilo, clusterId);
        var clientBuilder = Host.CreateApplicationBuilder();
        clientBuilder.UseOrleansClient(client => client
            .UseLocalhostClustering(primaryGateway, NodeCluster.ServiceId, clusterId)
            .AddThreadIterators(options => options.Scheduler = new SchedulerOptions { WorkerCount = 1 }));
        using var clientHost = clientBuilder.Build();
        await clientHost.StartAsync();
        try
        {
            var processes = clientHost.Services.GetRequiredService<ClusterProcesses>();
            var (monitor, got) = Watch(processes, NodeCluster.Resident);
            var linked = processes.Scheduler.Spawn(NodeCluster.WaitsForEver(), "linked");
            var link = processes.Get<int>(NodeCluster.Resident).Link(linked);
            await LifetimeTests.WaitUntil(() =>
                processes.Node().Monitors.HostOf(monitor) is not null && link.Monitor is { } m && processes.Node().Monitors.HostOf(m) is not null);
            Assert.False(monitor.HasFired || link.HasFired, "A monitor fired before the node was killed.");

            var silent = processes.Get<SilentRequest>(NodeCluster.Silent);
            var ask = silent.AskAsync<int>(reply => new SilentRequest(reply), Generous);
            await LifetimeTests.WaitUntil(() => processes.Node().HasLinkTo(silent.Name) && processes.Node().LinkIsIdle(silent.Name));

            node.Kill(entireProcessTree: true);
            var down = await got.Task.WaitAsync(Generous);
            Assert.True(down.Reason == ProcessExitReason.NodeDown, $"{down}");
            await linked.AsTask().ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Generous);
            Assert.Equal(ThreadOutcome.Canceled, linked.Outcome);
            var failed = await Assert.ThrowsAsync<ProcessEndedException>(() => ask.WaitAsync(Generous));
            Assert.Equal(ProcessExitReason.NodeDown, failed.Reason);
        }
        finally
        {
            if (!node.HasExited)
            {
                node.Kill(entireProcessTree: true);
            }

            await clientHost.StopAsync();
            await primary.StopAsync();
        }
    }

    [Fact]
    public async Task AProcessLinkedToAThreadOnANodeThatIsKilled_IsStopped_OnceTheClusterDeclaresTheNodeDead()
    {
        var clusterId = $"linkerdown-{Guid.NewGuid():N}";
        var (primarySilo, primaryGateway, nodeSilo, nodeGateway) = (FreePort(), FreePort(), FreePort(), FreePort());
        using var primary = BuildSilo(primarySilo, primaryGateway, null, clusterId);
        await primary.StartAsync();
        var processes = primary.Services.GetRequiredService<ClusterProcesses>();
        var name = $"anchor/{Guid.NewGuid():N}";
        var cleaned = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Anchor(Mailbox<int> inbox)
        {
            try
            {
                while (true)
                {
                    yield return inbox.Recv();
                }
            }
            finally
            {
                cleaned.TrySetResult();
            }
        }

        await processes.SpawnAsync<int>(name, Anchor);
        var (monitor, got) = Watch(processes, name);
        using var node = await StartNode(nodeSilo, nodeGateway, primarySilo, clusterId, linkTo: name);
        try
        {
            var membership = primary.Services.GetRequiredService<IClusterMembershipService>();
            var nodeAddress = membership.CurrentSnapshot.Members.Values.Single(m => m.SiloAddress.Endpoint.Port == nodeSilo).SiloAddress;
            await LifetimeTests.WaitUntil(() => processes.Node().IsLinkedFrom(name, nodeAddress));
            Assert.False(monitor.HasFired, "The process ended before the node was killed.");

            node.Kill(entireProcessTree: true);
            var down = await got.Task.WaitAsync(Generous);
            Assert.Equal(ProcessExitReason.Stopped, down.Reason);
            Assert.Contains($"silo {nodeAddress}, which left the cluster (noconnection)", down.Detail, StringComparison.Ordinal);
            await cleaned.Task.WaitAsync(Generous);
        }
        finally
        {
            if (!node.HasExited)
            {
                node.Kill(entireProcessTree: true);
            }

            await primary.StopAsync();
        }
    }

    [Fact]
    public async Task ProcessesOnASurvivingSilo_StayReachableFromAnother_AfterAThirdSiloIsKilled()
    {
        // Orleans keeps where each name's grain lives in a directory spread over the silos: the part the killed silo
        // held must not be lost, or a send finds no activation for a name whose process still runs, and makes a new
        // one where no process runs.
        const int Survivors = 60;
        var clusterId = $"directory-{Guid.NewGuid():N}";
        var (primarySilo, primaryGateway, secondSilo, secondGateway, nodeSilo, nodeGateway) = (FreePort(), FreePort(), FreePort(), FreePort(), FreePort(), FreePort());
        using var primary = BuildSilo(primarySilo, primaryGateway, null, clusterId);
        await primary.StartAsync();
        using var second = BuildSilo(secondSilo, secondGateway, primarySilo, clusterId);
        await second.StartAsync();
        using var node = await StartNode(nodeSilo, nodeGateway, primarySilo, clusterId);
        try
        {
            var here = primary.Services.GetRequiredService<ClusterProcesses>();
            var there = second.Services.GetRequiredService<ClusterProcesses>();
            var deadLetters = new ConcurrentQueue<string>();
            here.Scheduler.DeadLetter += (_, e) => deadLetters.Enqueue($"{e.Message} to {e.Mailbox}: {e.Reason}");
            var received = new int[Survivors];
            var rounds = new[] { new CountdownEvent(Survivors), new CountdownEvent(Survivors) };
            for (var i = 0; i < Survivors; i++)
            {
                var index = i;
                IEnumerable<Event> Survivor(Mailbox<int> inbox)
                {
                    while (true)
                    {
                        yield return inbox.Recv();
                        rounds[Interlocked.Increment(ref received[index]) - 1].Signal();
                    }
                }

                await there.SpawnAsync<int>($"survivor/{i}", Survivor);
            }

            var targets = Enumerable.Range(0, Survivors).Select(i => here.Get<int>($"survivor/{i}")).ToList();
            targets.ForEach(t => t.Send(1));
            Assert.True(rounds[0].Wait(Generous), $"{rounds[0].CurrentCount} survivors did not get their first message.");

            // The killed node's end, as the primary silo learns it from the membership.
            var (monitor, got) = Watch(here, NodeCluster.Resident);
            await LifetimeTests.WaitUntil(() => monitor.HasFired || here.Node().Monitors.HostOf(monitor) is not null);
            node.Kill(entireProcessTree: true);
            Assert.Equal(ProcessExitReason.NodeDown, (await got.Task.WaitAsync(Generous)).Reason);

            targets.ForEach(t => t.Send(2));
            await Task.WhenAny(Task.Run(() => rounds[1].Wait(Generous)), LifetimeTests.WaitUntil(() => !deadLetters.IsEmpty));
            Assert.True(deadLetters.IsEmpty, $"{deadLetters.Count} sends after the kill were dead letters: {string.Join("; ", deadLetters.Take(3))}");
            Assert.True(rounds[1].Wait(Generous), $"{rounds[1].CurrentCount} survivors did not get their second message.");
        }
        finally
        {
            if (!node.HasExited)
            {
                node.Kill(entireProcessTree: true);
            }

            await second.StopAsync();
            await primary.StopAsync();
        }
    }

    /// <summary>Monitors process <paramref name="name"/> for a green thread of <paramref name="processes"/>, which completes the task with the <see cref="ProcessDown"/> it hears.</summary>
    private static (ProcessMonitor Monitor, TaskCompletionSource<ProcessDown> Heard) Watch(ClusterProcesses processes, string name)
    {
        var downs = new Mailbox<ProcessDown>();
        var heard = new TaskCompletionSource<ProcessDown>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Watcher()
        {
            yield return downs.Recv();
            heard.TrySetResult(downs.Recv().Value);
        }

        processes.Scheduler.Spawn(Watcher(), "watcher");
        return (processes.Get<int>(name).Monitor(downs), heard);
    }

    private static IHost BuildSilo(int siloPort, int gatewayPort, int? primaryPort, string clusterId)
    {
        var builder = Host.CreateApplicationBuilder();
        builder.UseOrleans(silo =>
        {
            silo.UseLocalhostClustering(siloPort, gatewayPort, primaryPort is { } port ? new IPEndPoint(IPAddress.Loopback, port) : null, NodeCluster.ServiceId, clusterId);
            NodeCluster.ConfigureMembership(silo);
            silo.AddThreadIterators();
        });
        return builder.Build();
    }

    private static async Task<Process> StartNode(int siloPort, int gatewayPort, int primaryPort, string clusterId, string? linkTo = null)
    {
        var program = Path.Combine(AppContext.BaseDirectory, "ThreadIterators.Orleans.NodeHost.dll");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { program, $"{siloPort}", $"{gatewayPort}", $"{primaryPort}", clusterId })
        {
            start.ArgumentList.Add(argument);
        }

        if (linkTo is not null)
        {
            start.ArgumentList.Add(linkTo);
        }

        var node = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {program}.");
        node.ErrorDataReceived += (_, _) => { };
        node.BeginErrorReadLine();
        var ready = Task.Run(async () =>
        {
            while (await node.StandardOutput.ReadLineAsync() is { } line)
            {
                if (line.Trim() == NodeCluster.Ready)
                {
                    return true;
                }
            }

            return false;
        });
        if (!await ready.WaitAsync(Generous))
        {
            throw new InvalidOperationException($"The node process ended before it joined the cluster (exit code {node.ExitCode}).");
        }

        // Keep draining its output, so it never blocks on a full pipe.
        _ = Task.Run(async () =>
        {
            while (await node.StandardOutput.ReadLineAsync() is not null)
            {
            }
        });
        return node;
    }

    internal static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
