using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;

namespace ThreadIterators.Orleans.Tests;

/// <summary>Monitors across silos: a process's end with its outcome, no process, a removal, a silo's stop (NodeDownTests: a silo's death).</summary>
[Collection(nameof(SharedCluster))]
public sealed class MonitorTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(90);

    [Theory]
    [InlineData(0, ProcessExitReason.Normal)]
    [InlineData(1, ProcessExitReason.Faulted)]
    public async Task AMonitorOnAProcessOnAnotherSilo_HearsItsEnd_WithTheOutcome(int order, ProcessExitReason expected)
    {
        var process = await fixture.Second.SpawnAsync<int>($"mortal/{Guid.NewGuid():N}", EndsAsTold);
        var down = await MonitorFromFirst(process.Name, () => process.Send(order));

        Assert.Equal(expected, down.Reason);
        Assert.Equal(process.Name, down.Name);
        Assert.Equal(fixture.Cluster.Silos[1].SiloAddress.ToString(), down.Silo);
        if (expected == ProcessExitReason.Faulted)
        {
            Assert.Contains("told to fail", down.Detail, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task AMonitorOfANameNoProcessHolds_FiresNoProcess_AtOnce_AndStartsNothing()
    {
        var name = $"count/{Guid.NewGuid():N}";
        var down = await MonitorFromFirst(name, () => { });
        Assert.Equal(ProcessExitReason.NoProcess, down.Reason);
        Assert.False(ClusterFixture.Counted.ContainsKey(name), "The monitor started a process of the kind.");
    }

    [Fact]
    public async Task ARemovedMonitor_SendsNothing_WhileAnotherOfTheSameProcessFires()
    {
        var process = await fixture.Second.SpawnAsync<int>($"mortal/{Guid.NewGuid():N}", EndsAsTold);
        var removedDowns = new Mailbox<ProcessDown>();
        var removed = fixture.First.Get<int>(process.Name).Monitor(removedDowns);
        Assert.True(removed.Remove());
        Assert.False(removed.Remove());

        var down = await MonitorFromFirst(process.Name, () => process.Send(0));
        Assert.Equal(ProcessExitReason.Normal, down.Reason);
        Assert.False(removed.HasFired);
        Assert.Equal(0, removedDowns.Count);
    }

    [Fact]
    public async Task AProcessOnASiloThatStops_IsStopped_AndItsMonitorHearsOfIt()
    {
        var silo = await fixture.Cluster.StartAdditionalSiloAsync();
        var processes = silo.ServiceProvider.GetRequiredService<ClusterProcesses>();
        var process = await processes.SpawnAsync<int>($"mortal/{Guid.NewGuid():N}", EndsAsTold);
        var down = await MonitorFromFirst(process.Name, () => _ = fixture.Cluster.StopSiloAsync(silo));

        // The stopping silo tells its monitors the process was stopped; but the cluster may declare it dead first, as
        // it leaves, and then the monitor hears that: both say the process is gone with its silo.
        Assert.True(down.Reason is ProcessExitReason.Stopped or ProcessExitReason.NodeDown, $"{down}");
    }

    /// <summary>A process that ends when told: 0 returns, anything else throws.</summary>
    private static IEnumerable<Event> EndsAsTold(Mailbox<int> inbox)
    {
        yield return inbox.Recv();
        if (inbox.Recv().Value != 0)
        {
            throw new InvalidOperationException("told to fail");
        }
    }

    /// <summary>
    /// Sets a monitor from a green thread on the first silo, waits until the grain has answered it (for a running
    /// process), then runs <paramref name="end"/>, and returns what the watcher received.
    /// </summary>
    private async Task<ProcessDown> MonitorFromFirst(string name, Action end)
    {
        var downs = new Mailbox<ProcessDown>();
        var got = new TaskCompletionSource<ProcessDown>(TaskCreationOptions.RunContinuationsAsynchronously);
        var monitor = fixture.First.Get<int>(name).Monitor(downs);
        IEnumerable<Event> Watcher()
        {
            yield return downs.Recv();
            got.TrySetResult(downs.Recv().Value);
        }

        fixture.First.Scheduler.Spawn(Watcher(), "watcher");
        await LifetimeTests.WaitUntil(() => monitor.HasFired || fixture.First.Node().Monitors.HostOf(monitor) is not null);
        end();
        var down = await got.Task.WaitAsync(Generous);
        Assert.Same(monitor, down.Monitor);
        Assert.True(monitor.HasFired);
        return down;
    }
}
