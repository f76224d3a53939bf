using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>
/// This silo's <see cref="INodeObserver"/>: takes the notifications other silos send it, each once and in each
/// sender's order, and hands them to the silo's monitors and asks. Any thread: Orleans calls an observer as calls come.
/// </summary>
internal sealed class NodeObserver : INodeObserver
{
    private readonly ProcessNode _node;
    private readonly Guid _incarnation = Guid.NewGuid();

    /// <summary>For each sending link, the number of the next notification it will send; under its own lock.</summary>
    private readonly Dictionary<Guid, long> _nextSequence = [];

    public NodeObserver(ProcessNode node) => _node = node;

    public Task<DeliveryReceipt> Deliver(DeliveryBatch batch)
    {
        // One link has one call in flight, so a lock per batch only keeps two links' bookkeeping apart.
        int skip;
        lock (_nextSequence)
        {
            var known = _nextSequence.TryGetValue(batch.Link, out var next);
            skip = known ? (int)Math.Clamp(next - batch.FirstSequence, 0, batch.Messages.Length) : 0;
            _nextSequence[batch.Link] = Math.Max(next, batch.FirstSequence + batch.Messages.Length);
        }

        for (var i = skip; i < batch.Messages.Length; i++)
        {
            Take(batch.Messages[i]);
        }

        return Task.FromResult(new DeliveryReceipt { Status = DeliveryStatus.Delivered, Incarnation = _incarnation });
    }

    /// <summary>Hands one notification to the silo's monitors or asks.</summary>
    internal void Take(object? notification)
    {
        switch (notification)
        {
            case MonitorExit exit:
                _node.Monitors.Exited(exit.Monitor, exit.Exit);
                break;
            case AskAnswer answer:
                _node.Asks.Answered(answer);
                break;
            default:
                // A newer silo's notification this one does not know: nothing waits for it here.
                break;
        }
    }
}
