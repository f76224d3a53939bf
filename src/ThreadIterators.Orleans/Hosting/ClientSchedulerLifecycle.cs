using System.Threading;
using System.Threading.Tasks;
using Orleans;

namespace ThreadIterators.Orleans;

/// <summary>Ties a client's scheduler to the client's life: disposed, its green threads stopped, as the client stops.</summary>
internal sealed class ClientSchedulerLifecycle(Scheduler scheduler, ProcessNode node) : ILifecycleParticipant<IClusterClientLifecycle>
{
    public void Participate(IClusterClientLifecycle lifecycle) =>
        lifecycle.Subscribe(nameof(ClientSchedulerLifecycle), ServiceLifecycleStage.Active, _ => Task.CompletedTask, cancellationToken => SchedulerLifecycle.StopAsync(scheduler, node, cancellationToken));
}
