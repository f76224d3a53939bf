using System;
using System.Threading;
using System.Threading.Tasks;
using Orleans;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// Ties the silo's scheduler to the silo's life: as the silo stops, before its grains are deactivated, the scheduler
/// is disposed, so every green thread is stopped with its <c>finally</c> blocks run while the cluster can still carry
/// what they send on the way out.
/// </summary>
internal sealed class SchedulerLifecycle : ILifecycleParticipant<ISiloLifecycle>
{
    private readonly Scheduler _scheduler;
    private readonly ProcessNode _node;

    public SchedulerLifecycle(Scheduler scheduler, ProcessNode node)
    {
        _scheduler = scheduler;
        _node = node;
    }

    public void Participate(ISiloLifecycle lifecycle) =>
        lifecycle.Subscribe(nameof(SchedulerLifecycle), ServiceLifecycleStage.Active, _ => Task.CompletedTask, cancellationToken => StopAsync(_scheduler, _node, cancellationToken));

    /// <summary>Stops the node's processes and disposes the scheduler, waiting for it until the host gives up.</summary>
    internal static async Task StopAsync(Scheduler scheduler, ProcessNode node, CancellationToken cancellationToken)
    {
        node.Stopping();

        try
        {
            await scheduler.DisposeAsync().AsTask().WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The silo's (or client's) shutdown timeout: the silo stops waiting, and the disposal goes on in the background.
        }
    }
}
