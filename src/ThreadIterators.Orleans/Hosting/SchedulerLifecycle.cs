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
        lifecycle.Subscribe(nameof(SchedulerLifecycle), ServiceLifecycleStage.Active, _ => Task.CompletedTask, StopAsync);

    private async Task StopAsync(CancellationToken cancellationToken)
    {
        _node.Stopping();

        try
        {
            await _scheduler.DisposeAsync().AsTask().WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The silo's shutdown timeout: the silo stops waiting, and the disposal goes on in the background.
        }
    }
}
