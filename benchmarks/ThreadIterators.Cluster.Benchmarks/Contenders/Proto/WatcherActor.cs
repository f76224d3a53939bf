using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Proto;
using Proto.Remote;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// A node-down watcher, on the first node, hearing that <c>watched</c> is gone by either of the two ways Proto.Remote
/// has: the actor's death-watch (<c>context.Watch</c>, answered by <see cref="Terminated"/>), and the event stream's
/// <see cref="EndpointTerminatedEvent"/> for the watched actor's address, which Proto.Remote publishes when it gives
/// up reconnecting to a node. Both are set up as it starts, and then <c>watching</c> is completed. <c>heard</c> is
/// completed with the <see cref="Stopwatch"/> timestamp of the first news by either way (or failed if a
/// <see cref="Terminated"/> gives a reason other than the address's loss).
/// </summary>
/// <remarks>
/// Why both: in Proto.Remote 1.8.0 the death-watch alone never hears of a lost node. When an endpoint ends, its
/// watch table (watched actor's id to its watchers) is read the wrong way round: the <see cref="Terminated"/> with
/// reason AddressTerminated goes to a process on this node whose id is the watched actor's (if one exists), naming
/// the watcher as the one gone, and the watchers get nothing. The event is Proto.Remote's own signal for the same
/// loss, and the watch stays so that a fixed Proto.Remote is measured by its death-watch with no change here.
/// </remarks>
internal sealed class WatcherActor(PID watched, TaskCompletionSource watching, TaskCompletionSource<long> heard) : IActor
{
    private EventStreamSubscription<object>? _subscription;
    private int _terminations;
    private int _endpointLosses;

    /// <summary>Gets how many <see cref="Terminated"/> this watcher had for the watched actor.</summary>
    public int Terminations => Volatile.Read(ref _terminations);

    /// <summary>Gets how many <see cref="EndpointTerminatedEvent"/> this watcher had for the watched actor's address.</summary>
    public int EndpointLosses => Volatile.Read(ref _endpointLosses);

    /// <summary>Gets which way this watcher heard first, once it has heard.</summary>
    public string? HeardBy { get; private set; }

    /// <inheritdoc />
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case Started:
                var self = context.Self;
                var root = context.System.Root;
                var address = watched.Address;

                // Into this actor's mailbox, so that the news is taken one at a time like any message.
                _subscription = context.System.EventStream.Subscribe<EndpointTerminatedEvent>(e => e.Address == address, e => root.Send(self, e));
                context.Watch(watched);
                watching.TrySetResult();
                break;
            case Terminated terminated when terminated.Who.Equals(watched):
                Interlocked.Increment(ref _terminations);
                if (terminated.Why != TerminatedReason.AddressTerminated)
                {
                    heard.TrySetException(new InvalidOperationException($"{context.Self} heard that {watched} is gone with reason {terminated.Why}, not AddressTerminated."));
                }

                Hear(nameof(Terminated));
                break;
            case EndpointTerminatedEvent:
                Interlocked.Increment(ref _endpointLosses);
                Hear(nameof(EndpointTerminatedEvent));
                break;
            case Stopping:
                _subscription?.Unsubscribe();
                break;
        }

        return Task.CompletedTask;
    }

    private void Hear(string by)
    {
        if (HeardBy is null)
        {
            HeardBy = by;
            heard.TrySetResult(Stopwatch.GetTimestamp());
        }
    }
}
