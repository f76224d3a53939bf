using System;
using System.Threading.Tasks;
using Orleans;
using Orleans.Concurrency;

namespace ThreadIterators.Orleans;

/// <summary>
/// A silo's address for what other silos tell it: one observer reference per silo, passed in its monitors and in
/// the reply handles of its asks, through which other silos send it notifications, in order.
/// </summary>
[Alias("ThreadIterators.Orleans.INodeObserver")]
internal interface INodeObserver : IGrainObserver
{
    /// <summary>
    /// Takes a batch of notifications from another silo (answers to asks, ends of monitored processes), in the order
    /// that silo sent them, each once: the same batches, numbers and receipts as a process's grain takes.
    /// </summary>
    [Alias("Deliver")]
    [ResponseTimeout("00:00:10")]
    Task<DeliveryReceipt> Deliver(DeliveryBatch batch);
}
