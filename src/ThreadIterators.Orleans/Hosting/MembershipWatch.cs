using System;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;
using Orleans;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// Reads Orleans' membership while the silo runs, and tells the monitors of each silo declared dead (step 3 of
/// MonitorTable.cs): the failure detection is Orleans', with no heartbeat of this package's own.
/// </summary>
internal sealed partial class MembershipWatch : ILifecycleParticipant<ISiloLifecycle>, IDisposable
{
    private readonly IClusterMembershipService _membership;
    private readonly ProcessNode _node;
    private readonly CancellationTokenSource _stop = new();
    private Task _watching = Task.CompletedTask;

    public MembershipWatch(IClusterMembershipService membership, ProcessNode node)
    {
        _membership = membership;
        _node = node;
    }

    public void Dispose() => _stop.Dispose();

    public void Participate(ISiloLifecycle lifecycle) =>
        lifecycle.Subscribe(nameof(MembershipWatch), ServiceLifecycleStage.Active, StartAsync, StopAsync);

    private Task StartAsync(CancellationToken cancellationToken)
    {
        _watching = Task.Run(WatchAsync, CancellationToken.None);
        return Task.CompletedTask;
    }

    private async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        try
        {
            await _watching.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            // Stopped waiting, or the watch ended on its token: either way it reads no more.
        }
    }

    private async Task WatchAsync()
    {
        try
        {
            await foreach (var snapshot in _membership.MembershipUpdates.WithCancellation(_stop.Token).ConfigureAwait(false))
            {
                foreach (var member in snapshot.Members.Values)
                {
                    if (member.Status == SiloStatus.Dead)
                    {
                        _node.Monitors.NodeDown(member.SiloAddress);
                    }
                }
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
            // The silo stops.
        }
        catch (Exception exception)
        {
            LogWatchFailed(_node.Logger, exception);
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "Reading Orleans' membership failed: monitors will not hear of silos that leave the cluster")]
    private static partial void LogWatchFailed(ILogger logger, Exception exception);
}
