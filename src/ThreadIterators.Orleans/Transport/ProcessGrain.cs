using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Orleans;
using Orleans.GrainDirectory;
using Orleans.Placement;
using Orleans.Runtime;
using Orleans.Runtime.Placement;

namespace ThreadIterators.Orleans;

/// <summary>
/// The activation of a process name (step 4 of ProcessNode.cs): it starts the process when activated, holds it while
/// its thread runs, takes batches into its inbox once each, and goes away when the thread ends, leaving the name free.
/// </summary>
/// <remarks>
/// <para>
/// Placed on the silo that first calls it: a spawn on a silo activates the name there, and a process started on
/// demand runs beside its first sender. Kept while its thread runs, however idle.
/// </para>
/// <para>
/// Between a process's end and the activation's going away, a batch or a spawn on this silo starts a new incarnation
/// in the same activation (from the spawn waiting here, or the name's kind), as a new activation would: a message sent
/// just after a process ended reaches the next one, not the dead letters.
/// </para>
/// </remarks>
[PreferLocalPlacement]
[KeepAlive]
[GrainType("threaditerators-process")]
[GrainDirectory(GrainDirectoryName = DirectoryName)]
internal sealed class ProcessGrain : Grain, IProcessGrain, IProcessActivation
{
    /// <summary>
    /// The name of the grain directory the activations are registered in: Orleans' strongly consistent one, which
    /// keeps the part of the directory a crashed silo held, where the default loses it (a send after the crash then
    /// finds no activation for a name whose process still runs, and starts an empty one elsewhere).
    /// </summary>
    internal const string DirectoryName = "threaditerators-processes";

    private readonly ProcessNode _node;

    /// <summary>For each link that has sent to this incarnation, the number of the next message it will send: lower numbers are retries.</summary>
    private readonly Dictionary<Guid, long> _nextSequence = [];

    /// <summary>The monitors of the current incarnation, and the silos to tell at its end.</summary>
    private readonly Dictionary<Guid, INodeObserver> _monitors = [];

    private LocalProcess? _process;
    private Guid _ticket;

    public ProcessGrain(ProcessNode node) => _node = node;

    public override Task OnActivateAsync(CancellationToken cancellationToken)
    {
        // The process starts with the first call the activation serves, not here: Orleans serves calls only on the
        // activation the directory kept, while two silos may each begin an activation of a name at once.
        return Task.CompletedTask;
    }

    public Task<DeliveryReceipt> Deliver(DeliveryBatch batch)
    {
        if ((_process is null || _process.Ended.IsCompleted) && _node.IsStopping)
        {
            // The silo stops: no process starts here; the sender sends the batch again, to where the name goes next.
            DeactivateOnIdle();
            return Task.FromResult(new DeliveryReceipt { Status = DeliveryStatus.Retry });
        }

        // A linked thread's end is for the process that held the name when the thread linked: one this batch starts
        // is another, as a new pid is in Erlang, and is not stopped by it.
        var fresh = _process is null || _process.Ended.IsCompleted;
        if (fresh && Array.TrueForAll(batch.Messages, m => m is LinkedExit))
        {
            // Only the end of a linked thread, for a process that has ended already: there is nothing to stop, no
            // process of the name's kind is started to be stopped, and the activation need not stay.
            _nextSequence[batch.Link] = Math.Max(_nextSequence.GetValueOrDefault(batch.Link), batch.FirstSequence + batch.Messages.Length);
            if (_process is null)
            {
                DeactivateOnIdle();
            }

            return Task.FromResult(new DeliveryReceipt { Status = DeliveryStatus.Delivered });
        }

        if ((_process is null || _process.Ended.IsCompleted) && !StartIncarnation())
        {
            // No process, and none to start: the name is no process's, and the activation need not stay.
            DeactivateOnIdle();
            return Task.FromResult(new DeliveryReceipt { Status = DeliveryStatus.NoSuchProcess });
        }

        var process = _process!;
        var known = _nextSequence.TryGetValue(batch.Link, out var next);
        if (batch.IsRetry && !known && batch.RetryOf != process.Incarnation)
        {
            // The first attempt may have reached an earlier incarnation, which had no way to tell this one.
            return Task.FromResult(new DeliveryReceipt { Status = DeliveryStatus.Lost, Incarnation = process.Incarnation });
        }

        var messages = batch.Messages;
        var skip = known ? (int)Math.Clamp(next - batch.FirstSequence, 0, messages.Length) : 0;
        var (stop, refused) = Take(process, fresh, messages, skip, refused: null, this.GetPrimaryKeyString());
        if (stop < messages.Length)
        {
            // A bounded inbox is full: the rest waits here for room, a while, in order.
            return DeliverWhenRoomAsync(batch, process, fresh, next, stop, refused);
        }

        _nextSequence[batch.Link] = Math.Max(next, batch.FirstSequence + messages.Length);
        return Task.FromResult(Receipt(process, refused, pending: 0));
    }

    /// <summary>
    /// Takes <paramref name="messages"/> from <paramref name="start"/> on into the process, in order, until one finds
    /// its bounded inbox full; returns that one's index (the length if none did), and the indexes refused so far.
    /// </summary>
    private static (int Stop, List<int>? Refused) Take(LocalProcess process, bool fresh, object?[] messages, int start, List<int>? refused, string name)
    {
        for (var i = start; i < messages.Length; i++)
        {
            InboxOutcome outcome;
            try
            {
                if (messages[i] is LinkedExit exit)
                {
                    if (!fresh && exit.IsFor(process))
                    {
                        process.StopByLink(exit.Detail);
                    }

                    outcome = InboxOutcome.Taken;
                }
                else
                {
                    using var receive = ClusterTracing.Receiving(messages[i], name);
                    outcome = process.TryDeliver(ClusterTracing.Unwrap(messages[i]));
                }
            }
            catch (InvalidOperationException)
            {
                // The body completed its own inbox: what comes after is refused, as a message of another type is,
                // and the batch's bookkeeping still runs, so that nothing is taken twice.
                outcome = InboxOutcome.NotOfType;
            }

            if (outcome == InboxOutcome.Full)
            {
                return (i, refused);
            }

            if (outcome == InboxOutcome.NotOfType)
            {
                (refused ??= []).Add(i);
            }
        }

        return (messages.Length, refused);
    }

    /// <summary>
    /// Takes the rest of a batch into a full bounded inbox as its process makes room, for up to
    /// <see cref="ThreadIteratorsClusterOptions.RoomPatience"/> (half a second): the back-pressure of a put (<see cref="ProcessRef{T}.Put"/>) reaches the sender as a
    /// receipt that comes only when its messages are in. What is still waiting then comes back as
    /// <see cref="DeliveryReceipt.Pending"/>, not taken, and the link sends it again at once: a call is never held near
    /// its response timeout, and the activation's other callers (monitors, other silos) are not kept out for long.
    /// </summary>
    private async Task<DeliveryReceipt> DeliverWhenRoomAsync(DeliveryBatch batch, LocalProcess process, bool fresh, long next, int stop, List<int>? refused)
    {
        var messages = batch.Messages;
        using (var patience = new CancellationTokenSource(_node.RoomPatience))
        {
            while (stop < messages.Length)
            {
                try
                {
                    using var receive = ClusterTracing.Receiving(messages[stop], this.GetPrimaryKeyString());
                    await process.DeliverWhenRoomAsync(ClusterTracing.Unwrap(messages[stop]), patience.Token).ConfigureAwait(true);
                }
                catch (OperationCanceledException) when (patience.IsCancellationRequested)
                {
                    break;
                }

                (stop, refused) = Take(process, fresh, messages, stop + 1, refused, this.GetPrimaryKeyString());
            }
        }

        // Only what was taken counts: the rest, sent again, is new to this incarnation.
        _nextSequence[batch.Link] = Math.Max(next, batch.FirstSequence + stop);
        return Receipt(process, refused, pending: messages.Length - stop);
    }

    private static DeliveryReceipt Receipt(LocalProcess process, List<int>? refused, int pending) => new()
    {
        Status = DeliveryStatus.Delivered,
        Incarnation = process.Incarnation,
        Refused = refused?.ToArray(),
        MessageType = refused is null ? null : process.MessageType.ToString(),
        Pending = pending,
    };

    public Task<ClaimOutcome> Claim(Guid ticket, SiloAddress spawner)
    {
        if (_process is not null && _ticket == ticket)
        {
            // This spawn's own process, started by a batch that came first; it may have ended already.
            return Task.FromResult(ClaimOutcome.Claimed);
        }

        var free = _process is null or { Ended.IsCompleted: true };
        if (free && _node.IsStopping)
        {
            DeactivateOnIdle();
            return Task.FromResult(ClaimOutcome.Moving);
        }

        if (free && _node.HasPendingSpawn(this.GetPrimaryKeyString(), ticket))
        {
            // The spawn is this silo's, and the name is free here (a new activation, or its last process ended).
            StartIncarnation();
        }
        else if (free)
        {
            // The name is free, but the spawn waits on another silo: the activation moves there, where the next claim
            // finds the spawn. (Going away instead would leave callers' caches pointing here, to a new activation here.)
            RequestContext.Set(IPlacementDirector.PlacementHintKey, spawner);
            MigrateOnIdle();
            RequestContext.Remove(IPlacementDirector.PlacementHintKey);
            return Task.FromResult(ClaimOutcome.Moving);
        }

        return Task.FromResult(_ticket == ticket ? ClaimOutcome.Claimed : ClaimOutcome.Held);
    }

    public void ProcessEnded(LocalProcess process)
    {
        _node.Ended(process);

        // On the ending thread's worker, outside the activation: the activation hears of it through a call of its own,
        // made with the silo's grain factory (the grain's own may be used only in its turns).
        _node.TellEnded(process);
    }

    public Task Ended(Guid incarnation)
    {
        if (_process is { } process && process.Incarnation == incarnation)
        {
            TellMonitors(process);
            DeactivateOnIdle();
        }
        else if (_process is null)
        {
            DeactivateOnIdle();
        }

        return Task.CompletedTask;
    }

    public Task<MonitorReply> Monitor(Guid monitor, INodeObserver watcher, SiloAddress? linkedFrom)
    {
        if (_process is not { Ended.IsCompleted: false })
        {
            if (_process is null)
            {
                // Made by this monitor: a monitor never starts a process, so the activation need not stay.
                DeactivateOnIdle();
            }

            return Task.FromResult(new MonitorReply { Running = false });
        }

        _monitors[monitor] = watcher;
        if (linkedFrom is not null)
        {
            // Kept with the process (step 5 of MonitorTable.cs), then the linking silo's death checked: a membership
            // update that declared it dead before the record finds it, or is found here.
            _process.AddLinker(monitor, linkedFrom);
            if (_node.Monitors.IsDead(linkedFrom))
            {
                _process.StopByLink(ProcessNode.LinkerGoneDetail(linkedFrom));
            }
        }

        return Task.FromResult(new MonitorReply { Running = true, Silo = _node.SiloAddress, Incarnation = _process.Incarnation });
    }

    public Task Demonitor(Guid monitor)
    {
        _monitors.Remove(monitor);
        _process?.RemoveLinker(monitor);
        return Task.CompletedTask;
    }

    public override async Task OnDeactivateAsync(DeactivationReason reason, CancellationToken cancellationToken)
    {
        if (_process is { } process && !process.Ended.IsCompleted)
        {
            // Deactivated under a running process (the silo stops, or Orleans moves the grain): stop it, so its finally
            // blocks run, and wait for its end as long as the deactivation may take.
            process.Thread.Stop(reason.ToString());
            try
            {
                await process.Ended.WaitAsync(cancellationToken).ConfigureAwait(true);
            }
            catch (OperationCanceledException)
            {
                // The deactivation's time is up; the thread ends on its own, later.
            }
        }

        if (_process is { } last)
        {
            TellMonitors(last);
        }
    }

    /// <summary>
    /// Tells the silos that monitor the process of its end (step 2 of MonitorTable.cs), once, through this silo's
    /// ordered link to each (after any answer the process sent them); a silo that is gone hears of it no other way than
    /// by its own membership view, as it must.
    /// </summary>
    private void TellMonitors(LocalProcess process)
    {
        if (_monitors.Count == 0)
        {
            return;
        }

        var exit = process.Ended.IsCompleted
            ? new ProcessExitInfo { Reason = process.ExitReason, Detail = process.ExitDetail, Silo = _node.SiloAddress.ToString() }
            : new ProcessExitInfo { Reason = ProcessExitReason.Stopped, Detail = "its grain was deactivated", Silo = _node.SiloAddress.ToString() };
        foreach (var (monitor, watcher) in _monitors)
        {
            _node.Notify(watcher, new MonitorExit { Monitor = monitor, Exit = exit });
        }

        _monitors.Clear();
    }

    public Task<bool> Start()
    {
        if (_process is { Ended.IsCompleted: false })
        {
            return Task.FromResult(true);
        }

        if (_node.IsStopping || !StartIncarnation())
        {
            // Nothing to start here: the activation need not stay.
            DeactivateOnIdle();
            return Task.FromResult(false);
        }

        return Task.FromResult(true);
    }

    /// <summary>Starts a process for the name, from the spawn waiting on this silo or the name's kind; false if neither.</summary>
    private bool StartIncarnation()
    {
        LocalProcess? process;
        Guid ticket;
        try
        {
            (process, ticket) = _node.Start(this.GetPrimaryKeyString(), this);
        }
        catch (ObjectDisposedException) when (_node.IsStopping)
        {
            // The silo's scheduler was disposed as this activation started a process: the silo is going.
            return false;
        }

        if (process is null)
        {
            return false;
        }

        if (_process is { } previous)
        {
            // The last incarnation's monitors hear of its end before the next one starts.
            TellMonitors(previous);
        }

        _process = process;
        _ticket = ticket;
        _nextSequence.Clear();
        return true;
    }
}
