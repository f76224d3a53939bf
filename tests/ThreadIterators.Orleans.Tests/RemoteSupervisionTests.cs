using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators.Supervision;

namespace ThreadIterators.Orleans.Tests;

/// <summary>A supervisor on one silo restarting a child that lives on another: a local child started there and linked to it.</summary>
[Collection(nameof(SharedCluster))]
public sealed class RemoteSupervisionTests(ClusterFixture fixture)
{
    private static readonly TimeSpan Generous = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AStartOnASiloWithNoSuchKind_Fails_NamingTheKindAndTheSilo()
    {
        var second = fixture.Cluster.Silos[1].SiloAddress;
        var failure = await Assert.ThrowsAsync<InvalidOperationException>(() => fixture.First.StartAsync<long>($"unknown/{Guid.NewGuid():N}", second));
        Assert.Contains("kind \"unknown\"", failure.Message, StringComparison.Ordinal);
        Assert.Contains(second.ToString(), failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ALocalSupervisor_RestartsAChildOnAnotherSilo_ThereAgain_WhenItCrashes_AndItsShutdownStopsIt()
    {
        var name = $"fragile/{Guid.NewGuid():N}";
        var second = fixture.Cluster.Silos[1].SiloAddress;
        ProcessLink? current = null;
        IEnumerable<Event> Child()
        {
            // Stands for the process: starts it on the second silo, links to it, and waits for what the link does.
            var start = fixture.First.StartAsync<long>(name, second).AsEvent();
            yield return start;
            Volatile.Write(ref current, start.Result.Link(GreenThread.Current!));
            yield return Event.Never;
        }

        var supervisor = new Supervisor(new SupervisorOptions { Name = "remote supervisor" }, new ChildSpec("remote", () => Child()));
        var supervising = supervisor.Start(fixture.First.Scheduler);
        var first = await Armed(null);
        var record = ClusterFixture.Counted[name];
        Assert.Equal([fixture.Second.Scheduler], record.Starts.ToArray());

        // The process crashes: its link stops the child, which the supervisor restarts, which starts it there again.
        fixture.First.Get<long>(name).Send(-1);
        var again = await Armed(first);
        Assert.Equal(2, record.Starts.Count);
        Assert.All(record.Starts, scheduler => Assert.Same(fixture.Second.Scheduler, scheduler));
        Assert.Equal(1, supervisor.RestartCount);

        // The supervisor's shutdown stops its child, whose link stops the process.
        var downs = new Mailbox<ProcessDown>();
        var heard = new TaskCompletionSource<ProcessDown>(TaskCreationOptions.RunContinuationsAsynchronously);
        IEnumerable<Event> Watcher()
        {
            yield return downs.Recv();
            heard.TrySetResult(downs.Recv().Value);
        }

        fixture.First.Scheduler.Spawn(Watcher(), "watcher");
        var monitor = fixture.First.Get<long>(name).Monitor(downs);
        await LifetimeTests.WaitUntil(() => monitor.HasFired || fixture.First.Node().Monitors.HostOf(monitor) is not null);
        Assert.True(supervising.Stop());
        await supervising.AsTask().ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(Generous);
        var down = await heard.Task.WaitAsync(Generous);
        Assert.Equal(ProcessExitReason.Stopped, down.Reason);
        Assert.Contains("stopped by its link", down.Detail, StringComparison.Ordinal);
        Assert.True(again.HasFired);

        async Task<ProcessLink> Armed(ProcessLink? previous)
        {
            ProcessLink? link = null;
            await LifetimeTests.WaitUntil(() =>
                (link = Volatile.Read(ref current)) is not null && link != previous
                && link.Monitor is { } m && fixture.First.Node().Monitors.HostOf(m) is not null);
            return link!;
        }
    }
}
