using System;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;
using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>
/// A client's reading of the cluster's membership, which a client does not hold: it long-polls a silo's view
/// (<see cref="IMembershipFeed"/>, on the gateway it reaches) while the client runs, and tells its monitors of each
/// silo declared dead (step 3 of MonitorTable.cs), as a silo's <see cref="MembershipWatch"/> does.
/// </summary>
/// <remarks>
/// A poll that fails (its gateway's silo died, say) is made again, and Orleans sends it to another gateway, whose view
/// holds the dead silo once the cluster has declared it so. So a client hears of a silo's death as soon as a gateway's
/// view does, plus one answer's way.
/// </remarks>
internal sealed partial class ClientMembershipWatch(IGrainFactory grains, ProcessNode node) : ILifecycleParticipant<IClusterClientLifecycle>, IDisposable
{
    private static readonly TimeSpan RetryDelay = TimeSpan.FromMilliseconds(100);

    private readonly CancellationTokenSource _stop = new();
    private Task _watching = Task.CompletedTask;

    public void Dispose() => _stop.Dispose();

    public void Participate(IClusterClientLifecycle lifecycle) =>
        lifecycle.Subscribe(nameof(ClientMembershipWatch), ServiceLifecycleStage.Active, StartAsync, StopAsync);

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
            // Stopped waiting: the poll in flight ends with the client.
        }
    }

    private async Task WatchAsync()
    {
        var version = long.MinValue;
        var feed = grains.GetGrain<IMembershipFeed>(0);
        while (!_stop.IsCancellationRequested)
        {
            try
            {
                var news = await feed.Next(version).WaitAsync(_stop.Token).ConfigureAwait(false);
                foreach (var silo in news.Dead)
                {
                    node.Monitors.NodeDown(silo);
                }

                version = Math.Max(version, news.Version);
            }
            catch (OperationCanceledException) when (_stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception exception)
            {
                LogPollFailed(node.Logger, exception);
                try
                {
                    await Task.Delay(RetryDelay, _stop.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }

    [LoggerMessage(Level = LogLevel.Debug, Message = "A poll of the cluster's membership failed, and is made again")]
    private static partial void LogPollFailed(ILogger logger, Exception exception);
}
