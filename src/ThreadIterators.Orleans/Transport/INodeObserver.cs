using System;
using System.Threading.Tasks;
using Orleans;
using Orleans.Concurrency;

namespace ThreadIterators.Orleans;

/// <summary>
/// A silo's address for what other silos tell it: one observer reference per silo, passed in its monitors, through
/// which a process's grain tells it of the process's end.
/// </summary>
[Alias("ThreadIterators.Orleans.INodeObserver")]
internal interface INodeObserver : IGrainObserver
{
    /// <summary>The process that <paramref name="monitor"/> watches has ended.</summary>
    [Alias("ProcessExited")]
    [OneWay]
    Task ProcessExited(Guid monitor, ProcessExitInfo exit);
}
