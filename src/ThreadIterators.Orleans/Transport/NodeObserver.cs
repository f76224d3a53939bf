using System;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>This silo's <see cref="INodeObserver"/>: hands what it hears to the silo's monitors.</summary>
internal sealed class NodeObserver : INodeObserver
{
    private readonly MonitorTable _monitors;

    public NodeObserver(MonitorTable monitors) => _monitors = monitors;

    public Task ProcessExited(Guid monitor, ProcessExitInfo exit)
    {
        _monitors.Exited(monitor, exit);
        return Task.CompletedTask;
    }
}
