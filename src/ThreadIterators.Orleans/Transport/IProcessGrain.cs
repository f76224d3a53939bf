using System;
using System.Threading.Tasks;
using Orleans;
using Orleans.Concurrency;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// The grain of a process name: its activation holds the process while it runs, so Orleans' directory is where the
/// cluster finds a name, and Orleans' placement where a process started on demand runs.
/// </summary>
[Alias("ThreadIterators.Orleans.IProcessGrain")]
internal interface IProcessGrain : IGrainWithStringKey
{
    /// <summary>Puts a batch of messages into the process's inbox, starting the process first if its kind is registered.</summary>
    [Alias("Deliver")]
    [ResponseTimeout("00:00:10")]
    Task<DeliveryReceipt> Deliver(DeliveryBatch batch);

    /// <summary>
    /// Answers whether the activation runs the spawn of <paramref name="ticket"/>, made on <paramref name="spawner"/>:
    /// the activation was made there for it, or is there and its last process has ended; or another process holds the
    /// name; or the name is free but its activation is elsewhere, and moves to the spawner's silo, to be claimed again.
    /// </summary>
    [Alias("Claim")]
    Task<ClaimOutcome> Claim(Guid ticket, SiloAddress spawner);

    /// <summary>
    /// Starts a process of the name's kind in this activation, unless one runs in it already. False if the kind is not
    /// registered on this activation's silo, or the silo is stopping. The caller places a new activation with a
    /// placement hint (<see cref="ProcessNode.StartOnAsync{T}"/>).
    /// </summary>
    [Alias("Start")]
    Task<bool> Start();

    /// <summary>
    /// Watches the process for <paramref name="watcher"/>'s monitor <paramref name="monitor"/>: answers the silo it
    /// runs on, or that none runs (without starting one). A link's monitor names the linking silo,
    /// <paramref name="linkedFrom"/>, whose death stops the process.
    /// </summary>
    [Alias("Monitor")]
    Task<MonitorReply> Monitor(Guid monitor, INodeObserver watcher, SiloAddress? linkedFrom);

    /// <summary>Forgets a monitor its silo took back.</summary>
    [Alias("Demonitor")]
    [OneWay]
    Task Demonitor(Guid monitor);

    /// <summary>
    /// Tells the activation that its process of <paramref name="incarnation"/> has ended, from the ending thread's
    /// worker: the activation goes, unless a later incarnation runs in it by then.
    /// </summary>
    [Alias("Ended")]
    [OneWay]
    Task Ended(Guid incarnation);
}
