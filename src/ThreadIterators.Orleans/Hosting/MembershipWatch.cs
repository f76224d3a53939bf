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
    private readonly BackgroundLoop _loop;

    public MembershipWatch(IClusterMembershipService membership, ProcessNode node)
    {
        _membership = membership;
        _node = node;
        _loop = new BackgroundLoop(WatchAsync);
    }

    public void Dispose() => _loop.Dispose();

    public void Participate(ISiloLifecycle lifecycle) =>
        lifecycle.Subscribe(nameof(MembershipWatch), ServiceLifecycleStage.Active, _loop.Start, _loop.StopAsync);

    private async Task WatchAsync(CancellationToken stop)
    {
        try
        {
            await foreach (var snapshot in _membership.MembershipUpdates.WithCancellation(stop).ConfigureAwait(false))
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
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
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
