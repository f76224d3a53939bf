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
internal sealed partial class ClientMembershipWatch : ILifecycleParticipant<IClusterClientLifecycle>, IDisposable
{
    private static readonly TimeSpan RetryDelay = TimeSpan.FromMilliseconds(100);

    private readonly IGrainFactory _grains;
    private readonly ProcessNode _node;
    private readonly BackgroundLoop _loop;

    public ClientMembershipWatch(IGrainFactory grains, ProcessNode node)
    {
        _grains = grains;
        _node = node;
        _loop = new BackgroundLoop(WatchAsync);
    }

    public void Dispose() => _loop.Dispose();

    public void Participate(IClusterClientLifecycle lifecycle) =>
        lifecycle.Subscribe(nameof(ClientMembershipWatch), ServiceLifecycleStage.Active, _loop.Start, _loop.StopAsync);

    private async Task WatchAsync(CancellationToken stop)
    {
        var version = long.MinValue;
        var feed = _grains.GetGrain<IMembershipFeed>(0);
        while (!stop.IsCancellationRequested)
        {
            try
            {
                var news = await feed.Next(version).WaitAsync(stop).ConfigureAwait(false);
                foreach (var silo in news.Dead)
                {
                    _node.Monitors.NodeDown(silo);
                }

                version = Math.Max(version, news.Version);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception exception)
            {
                LogPollFailed(_node.Logger, exception);
                try
                {
                    await Task.Delay(RetryDelay, stop).ConfigureAwait(false);
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
