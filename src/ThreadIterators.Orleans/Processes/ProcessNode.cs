using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Orleans;
using Orleans.Configuration;
using Orleans.Runtime;
using Orleans.Runtime.Placement;
using Orleans.Serialization;

namespace ThreadIterators.Orleans;

/// <summary>
/// This silo's part of the cluster's processes: the processes it runs (by name), the spawns waiting for their
/// activation, and one outbound link per process it sends to. Any thread.
/// </summary>
/// <remarks>
/// The steps of a send, each written once, here or in the type named:
/// <list type="number">
/// <item><b>Local.</b> If the process runs on this silo, the link to it has nothing queued or in flight, and its inbox
/// has room (an unbounded one always has), the message goes straight into its inbox (<see cref="TryTakeHere{T}"/>):
/// in-process cost, and no earlier send from here can still be behind it.</item>
/// <item><b>Queue.</b> Otherwise it joins the link's queue (<see cref="OutboundLink.TryEnqueue"/>), numbered. A put
/// (<see cref="Put{T}"/>) first takes a credit of the link's put window, parking its green thread while
/// <see cref="ThreadIteratorsClusterOptions.PutWindow"/> put messages are on their way; a credit comes back as its
/// message is carried.</item>
/// <item><b>Carry.</b> The link carries its queue in one grain call at a time, in batches (<see cref="OutboundLink"/>):
/// one call in flight per link is what keeps a sender's messages in order over Orleans, which does not order calls
/// that are not awaited.</item>
/// <item><b>Take.</b> The activation of the name (<see cref="ProcessGrain.Deliver"/>) starts the process if need be,
/// skips numbers it has taken already (a retry), and puts the rest into the inbox. A bounded inbox takes them as it
/// has room: the call waits a while, then answers with the rest pending, which the link sends again.</item>
/// <item><b>Refuse.</b> What it cannot take comes back in the receipt, and becomes a dead letter here,
/// <see cref="DeadLetterReason.Undeliverable"/>.</item>
/// </list>
/// </remarks>
internal sealed partial class ProcessNode : IDisposable
{
    private static readonly TimeSpan ClaimPatience = TimeSpan.FromSeconds(10);
    private static readonly TimeSpan ClaimRetryDelay = TimeSpan.FromMilliseconds(10);

    private readonly ThreadIteratorsClusterOptions _options;
    private readonly IGrainFactory _grains;
    private readonly Serializer _serializer;
    /// <summary>This silo's address, or null in an Orleans client, which runs no processes of the cluster's.</summary>
    private readonly SiloAddress? _silo;
    private readonly ConcurrentDictionary<string, LocalProcess> _running = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, PendingSpawn> _pending = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, OutboundLink> _links = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<Type, bool> _checkedTypes = new();
    private readonly ConcurrentDictionary<INodeObserver, OutboundLink> _nodeLinks = new();
    private readonly object _observerGate = new();
    private readonly Timer _sweep;
    private readonly CancellationTokenSource _stoppingSource = new();
    private bool _stopping;
    private NodeObserver? _observerObject;
    private INodeObserver? _observer;

    /// <param name="options">The options given to AddThreadIterators.</param>
    /// <param name="scheduler">The scheduler of this silo's or client's green threads.</param>
    /// <param name="grains">Orleans' grain factory.</param>
    /// <param name="serializer">Orleans' serializer, to find a message that cannot be carried.</param>
    /// <param name="silo">This silo's address, or null in an Orleans client.</param>
    /// <param name="maxMessageBodySize">The largest message body the cluster carries.</param>
    /// <param name="logger">Where it logs.</param>
    public ProcessNode(ThreadIteratorsClusterOptions options, Scheduler scheduler, IGrainFactory grains, Serializer serializer, SiloAddress? silo, int maxMessageBodySize, ILogger<ProcessNode> logger)
    {
        MaxMessageBodySize = maxMessageBodySize;
        _options = options;
        Scheduler = scheduler;
        _grains = grains;
        _serializer = serializer;
        _silo = silo;
        Logger = logger;
        Monitors = new MonitorTable(this);
        Asks = new AskTable(this);
        _sweep = new Timer(static node => ((ProcessNode)node!).Sweep(), this, options.LinkSweepPeriod, options.LinkSweepPeriod);
    }

    internal Scheduler Scheduler { get; }

    internal MonitorTable Monitors { get; }

    internal AskTable Asks { get; }

    /// <summary>Gets this silo's observer reference, made the first time it is needed (a monitor, an ask).</summary>
    internal INodeObserver Observer
    {
        get
        {
            lock (_observerGate)
            {
                if (_observer is null)
                {
                    // The object is kept here: Orleans holds an observer only weakly.
                    _observerObject = new NodeObserver(this);
                    _observer = _grains.CreateObjectReference<INodeObserver>(_observerObject);
                }

                return _observer;
            }
        }
    }

    /// <summary>Gets this silo's address. Only a silo's own parts ask for it: a client runs no process of the cluster's.</summary>
    internal SiloAddress SiloAddress => _silo ?? throw new InvalidOperationException($"{this} is not a silo.");

    /// <summary>Gets this silo's address, or null in an Orleans client.</summary>
    internal SiloAddress? SiloAddressIfSilo => _silo;

    /// <summary>Gets whether this node is an Orleans client's, which sends, asks and monitors, but runs no named process.</summary>
    internal bool IsClient => _silo is null;

    internal ILogger Logger { get; }

    internal int MaxBatchSize => _options.MaxBatchSize;

    internal int PutWindow => _options.PutWindow;

    internal TimeSpan RoomPatience => _options.RoomPatience;

    /// <summary>Gets how many receipts came back with messages pending, a full bounded inbox having kept them out; for tests.</summary>
    internal int PendingReceipts => Volatile.Read(ref _pendingReceipts);

    private int _pendingReceipts;

    /// <summary>Counts a receipt with messages pending (<see cref="PendingReceipts"/>).</summary>
    internal void CountPendingReceipt() => Interlocked.Increment(ref _pendingReceipts);

    /// <summary>Gets the largest message body the cluster carries (Orleans' MessagingOptions.MaxMessageBodySize).</summary>
    internal int MaxMessageBodySize { get; }

    /// <summary>
    /// Gets the indexes of the messages that are larger, serialized, than the cluster carries: each is serialized here
    /// to know, so only after a batch's call has failed.
    /// </summary>
    internal List<int> Oversized(object?[] messages)
    {
        var found = new List<int>();
        for (var i = 0; i < messages.Length; i++)
        {
            try
            {
                if (_serializer.SerializeToArray(messages[i]).Length > MaxMessageBodySize)
                {
                    found.Add(i);
                }
            }
            catch (Exception exception) when (exception is not OutOfMemoryException)
            {
                // Not serializable at all: as undeliverable as one too large.
                found.Add(i);
            }
        }

        return found;
    }

    internal IGrainFactory Grains => _grains;

    /// <summary>Sends a message through a handle (the steps are in this type's header).</summary>
    internal void Send<T>(ProcessRef<T> target, T message) => SendBoxed(target, message, boxed: null);

    /// <summary>
    /// Sends a message, as <see cref="Send{T}"/>; when it goes through a link, as <paramref name="boxed"/> if given, the
    /// object an ask's request is known by should it come back undeliverable.
    /// </summary>
    /// <returns>Where the message went, to wait until it is carried: the link and its position; no link if it went straight into a local inbox.</returns>
    internal (OutboundLink? Link, long Position) SendBoxed<T>(ProcessRef<T> target, T message, object? boxed)
    {
        CheckOpenType(message);
        var name = target.Name;
        _links.TryGetValue(name, out var link);
        if (TryTakeHere(name, link, message))
        {
            return (null, 0);
        }

        return Enqueue(name, target, ClusterTracing.Wrap(boxed ?? message, name), link);
    }

    /// <summary>
    /// Gets the event a green thread yields to put a message to a process (<see cref="ProcessRef{T}.Put"/>): the steps
    /// of a send, but a message that goes through the link first takes a credit of its put window.
    /// </summary>
    internal Event Put<T>(ProcessRef<T> target, T message)
    {
        if (GreenThread.Current is null)
        {
            throw new InvalidOperationException(
                $"Put() to {target} was called outside a green thread, which cannot yield the event it returns; call Send instead, which never blocks.");
        }

        CheckOpenType(message);
        return Event.Call(PutThroughLink(target, message));
    }

    private IEnumerable<Event> PutThroughLink<T>(ProcessRef<T> target, T message)
    {
        var name = target.Name;
        _links.TryGetValue(name, out var link);
        if (TryTakeHere(name, link, message))
        {
            yield break;
        }

        while (true)
        {
            link ??= _links.GetOrAdd(name, static (name, state) => state.Node.LinkToProcess(name, state.Target), (Node: this, Target: (object)target));
            yield return link.Puts.Acquire();
            if (link.TryEnqueue(ClusterTracing.Wrap(message, name), out _, put: true))
            {
                yield break;
            }

            // Retired by the sweep while this put waited for its credit (it was carried, and the link then idle): the
            // credit goes back, and the put starts again on the successor.
            link.Puts.Release();
            _links.TryRemove(new KeyValuePair<string, OutboundLink>(name, link));
            link = null;
        }
    }

    /// <summary>
    /// Step 1 of a send: puts the message straight into the inbox of the process if it runs here, nothing sent from
    /// here to it is still on its way, and its inbox has room (always, unbounded). False otherwise: it goes through the link.
    /// </summary>
    private bool TryTakeHere<T>(string name, OutboundLink? link, T message) =>
        _running.TryGetValue(name, out var local) && local is LocalProcess<T> process && (link is null || link.IsIdle) && process.Inbox.TrySend(message);

    /// <summary>
    /// Checks the message's own type when the handle's is open (abstract, or object), so that one unserializable
    /// message fails at its send, naming its type, not in a batch with a thousand others.
    /// </summary>
    private void CheckOpenType<T>(T message)
    {
        if ((typeof(T).IsAbstract || typeof(T) == typeof(object)) && message is not null)
        {
            CheckMessageType(message.GetType());
        }
    }

    /// <summary>
    /// Carries the end of a thread linked to process <paramref name="name"/> to it (<see cref="ProcessLink"/>), in
    /// order with this silo's messages to it: straight to the process if it runs here and nothing sent from here is
    /// still on its way, else through its link.
    /// </summary>
    internal void SendExit(string name, LinkedExit exit)
    {
        _links.TryGetValue(name, out var link);
        if (_running.TryGetValue(name, out var local) && (link is null || link.IsIdle))
        {
            if (exit.IsFor(local))
            {
                local.StopByLink(exit.Detail);
            }

            return;
        }

        Enqueue(name, $"process \"{name}\"", exit, link);
    }

    /// <summary>Queues <paramref name="message"/> on the link to process <paramref name="name"/> (step 2).</summary>
    private (OutboundLink Link, long Position) Enqueue(string name, object target, object? message, OutboundLink? link)
    {
        while (true)
        {
            link ??= _links.GetOrAdd(name, static (name, state) => state.Node.LinkToProcess(name, state.Target), (Node: this, Target: target));
            if (link.TryEnqueue(message, out var position))
            {
                return (link, position);
            }

            // Retired by the sweep as this send found it: the next lookup finds its successor, or makes it.
            _links.TryRemove(new KeyValuePair<string, OutboundLink>(name, link));
            link = null;
        }
    }

    /// <summary>
    /// Sends a notification (an answer to an ask, a monitored process's end) to the silo whose observer is
    /// <paramref name="observer"/>, in order with everything else this silo sends it: an answer sent before a process
    /// ended reaches its asker before the monitor's word of that end.
    /// </summary>
    internal void Notify(INodeObserver observer, object notification)
    {
        // Compared with the reference made already, if any (none made means none given out, so not this silo's): making
        // one here could be in a grain's turn, where the silo's grain factory may not be used.
        if (Volatile.Read(ref _observer) is { } own && observer.Equals(own))
        {
            // To this silo itself: handed over here, in order, with no call.
            _observerObject!.Take(notification);
            return;
        }

        while (true)
        {
            var link = _nodeLinks.GetOrAdd(observer, static (observer, node) => new OutboundLink(node, $"silo observer {observer}", observer, observer.Deliver), this);
            if (link.TryEnqueue(notification, out _))
            {
                return;
            }

            _nodeLinks.TryRemove(new KeyValuePair<INodeObserver, OutboundLink>(observer, link));
        }
    }

    /// <summary>
    /// Retires the links idle since the last sweep, and drops them: one link per destination ever sent to would
    /// otherwise be kept for the silo's life. Every <see cref="ThreadIteratorsClusterOptions.LinkSweepPeriod"/> (30 s),
    /// on a timer: a link idle for a whole period goes.
    /// </summary>
    internal void Sweep()
    {
        foreach (var (name, link) in _links)
        {
            if (link.TryRetire())
            {
                _links.TryRemove(new KeyValuePair<string, OutboundLink>(name, link));
            }
        }

        foreach (var (observer, link) in _nodeLinks)
        {
            if (link.TryRetire())
            {
                _nodeLinks.TryRemove(new KeyValuePair<INodeObserver, OutboundLink>(observer, link));
            }
        }
    }

    /// <summary>
    /// Orleans declared <paramref name="silo"/> dead: every process here that a thread on it linked to is stopped
    /// (step 5 of MonitorTable.cs), as Erlang's <c>noconnection</c> exit signal stops a process linked across nodes.
    /// </summary>
    internal void LinkersGone(SiloAddress silo)
    {
        foreach (var process in _running.Values)
        {
            if (process.IsLinkedFrom(silo))
            {
                process.StopByLink(LinkerGoneDetail(silo));
            }
        }
    }

    /// <summary>What the monitors of a process stopped because its linker's silo died read.</summary>
    internal static string LinkerGoneDetail(SiloAddress silo) =>
        $"stopped by its link to a thread on silo {silo}, which left the cluster (noconnection)";

    /// <summary>Gets whether the silo is stopping: an activation then starts no process, and has its batches sent again elsewhere.</summary>
    internal bool IsStopping => Volatile.Read(ref _stopping);

    private OutboundLink LinkToProcess(string name, object target) =>
        new(this, $"process {name}", target, batch => _grains.GetGrain<IProcessGrain>(name).Deliver(batch));

    /// <summary>
    /// Starts the process of an activation of <paramref name="name"/> on this silo: the spawn waiting for it, else one
    /// of its registered kind; null if neither (the name is no process's). The activation's turn.
    /// </summary>
    internal (LocalProcess? Process, Guid Ticket) Start(string name, IProcessActivation activation)
    {
        LocalProcess process;
        var ticket = Guid.Empty;
        if (_pending.TryRemove(name, out var spawn))
        {
            process = spawn.Kind.Start(name, Scheduler, activation);
            ticket = spawn.Ticket;
        }
        else if (_options.Kinds.TryGetValue(ProcessKind.Of(name), out var kind))
        {
            process = kind.Start(name, Scheduler, activation);
        }
        else
        {
            return (null, Guid.Empty);
        }

        _running[name] = process;
        if (process.Ended.IsCompleted)
        {
            // It ended before it was listed (a body that returned or threw at its first step, on another worker): its
            // own removal found nothing to remove, so it is removed here, and sends go to its grain again.
            _running.TryRemove(new KeyValuePair<string, LocalProcess>(name, process));
        }

        return (process, ticket);
    }

    /// <summary>Gets whether this silo's link to <paramref name="name"/> has nothing queued or in flight; for tests.</summary>
    internal bool LinkIsIdle(string name) => !_links.TryGetValue(name, out var link) || link.IsIdle;

    /// <summary>Gets whether the spawn of <paramref name="ticket"/> waits on this silo for <paramref name="name"/>.</summary>
    internal bool HasPendingSpawn(string name, Guid ticket) => _pending.TryGetValue(name, out var spawn) && spawn.Ticket == ticket;

    /// <summary>Gets whether process <paramref name="name"/> runs here with a thread of <paramref name="silo"/> linked to it; for tests.</summary>
    internal bool IsLinkedFrom(string name, SiloAddress silo) => _running.TryGetValue(name, out var process) && process.IsLinkedFrom(silo);

    /// <summary>Gets whether this silo has sent to <paramref name="name"/> through a grain call (a link exists).</summary>
    internal bool HasLinkTo(string name) => _links.ContainsKey(name);

    /// <summary>The process has ended: sends from here go through its grain again, which may start a new one. Any thread.</summary>
    internal void Ended(LocalProcess process) => _running.TryRemove(new KeyValuePair<string, LocalProcess>(process.Name, process));

    /// <summary>
    /// Tells the activation of an ended process to go (<see cref="IProcessGrain.Ended"/>): a one-way call, from the
    /// ending thread's worker; never throws, as it runs in the process's last <c>finally</c> block.
    /// </summary>
    internal void TellEnded(LocalProcess process)
    {
        try
        {
            _ = _grains.GetGrain<IProcessGrain>(process.Name).Ended(process.Incarnation);
        }
        catch (Exception exception)
        {
            // The silo is stopping: its activations go with it.
            LogTellEndedFailed(Logger, process.Name, exception);
        }
    }

    internal async Task<ProcessRef<T>> SpawnAsync<T>(string name, int? capacity, Func<Mailbox<T>, IEnumerable<Event>> body)
    {
        if (IsClient)
        {
            throw new InvalidOperationException(
                $"Process \"{name}\" cannot be spawned on {this}: the cluster's processes run on silos. A client sends to them, asks them and monitors them; spawn on a silo, or register a kind there (AddProcess) and send to the name.");
        }

        var spawn = new PendingSpawn(Guid.NewGuid(), new ProcessKind<T>(ProcessKind.Of(name), capacity, (_, inbox) => body(inbox)));
        if (!_pending.TryAdd(name, spawn))
        {
            throw new InvalidOperationException($"A spawn of process \"{name}\" is under way on {this} already.");
        }

        try
        {
            // A name free on another silo moves its activation here; the claim is made again, for up to ClaimPatience,
            // until it has.
            var patience = Stopwatch.StartNew();
            while (true)
            {
                ClaimOutcome outcome;
                try
                {
                    outcome = await _grains.GetGrain<IProcessGrain>(name).Claim(spawn.Ticket, SiloAddress).ConfigureAwait(false);
                }
                catch (OrleansMessageRejectionException)
                {
                    // Orleans rejected the claim: the activation it reached was going away.
                    outcome = ClaimOutcome.Moving;
                }

                if (outcome == ClaimOutcome.Claimed)
                {
                    break;
                }

                if (outcome == ClaimOutcome.Held || patience.Elapsed > ClaimPatience)
                {
                    throw new InvalidOperationException($"Process \"{name}\" could not be spawned on {this}: another process holds the name.");
                }

                await Task.Delay(ClaimRetryDelay).ConfigureAwait(false);
            }
        }
        finally
        {
            _pending.TryRemove(new KeyValuePair<string, PendingSpawn>(name, spawn));
        }

        return new ProcessRef<T>(name, this);
    }

    /// <summary>
    /// Starts a process of the name's kind on <paramref name="silo"/>, unless one holds the name: the name's grain is
    /// activated there by a placement hint, and starts the kind's body (<see cref="ProcessGrain.Start"/>). A name whose
    /// activation exists already starts where that is.
    /// </summary>
    internal async Task<ProcessRef<T>> StartOnAsync<T>(string name, SiloAddress silo)
    {
        // What this silo sent the name before (a linked thread's exit, say) reaches it first: a start that overtook a
        // restarted child's old exit would find the old process, link to it, and lose it to that exit.
        if (_links.TryGetValue(name, out var link))
        {
            await link.WhenAllCarried().ConfigureAwait(false);
        }

        bool started;
        try
        {
            // The hint rides in this call's request context, which this async method's caller does not see.
            RequestContext.Set(IPlacementDirector.PlacementHintKey, silo);
            started = await _grains.GetGrain<IProcessGrain>(name).Start().ConfigureAwait(false);
        }
        finally
        {
            RequestContext.Remove(IPlacementDirector.PlacementHintKey);
        }

        return started
            ? new ProcessRef<T>(name, this)
            : throw new InvalidOperationException(
                $"Process \"{name}\" could not be started on silo {silo}: no process holds the name, and that silo has no kind \"{ProcessKind.Of(name)}\" registered (AddProcess), or is stopping.");
    }

    internal static void CheckName(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (name.Length == 0 || name[0] == '/')
        {
            throw new ArgumentException($"A process name is kind/key, or a kind alone, with a kind that is not empty; \"{name}\" is not one.", nameof(name));
        }
    }

    internal void CheckMessageType(Type type)
    {
        if (_checkedTypes.ContainsKey(type))
        {
            return;
        }

        // An abstract type or object may still carry serializable values; each is then checked as it is sent.
        if (!type.IsAbstract && type != typeof(object) && !_serializer.CanSerialize(type))
        {
            throw new ArgumentException(
                $"Orleans cannot serialize {type}, so no process can receive it from another silo: mark it [GenerateSerializer], with [Id(n)] on its members, or register a codec for it.",
                nameof(type));
        }

        _checkedTypes.TryAdd(type, true);
    }

    /// <summary>Reports messages no process took, on this silo's scheduler; an ask whose request it was fails at once.</summary>
    internal void Undeliverable(object target, IEnumerable<object?> messages)
    {
        foreach (var carried in messages)
        {
            var message = ClusterTracing.Unwrap(carried);
            Asks.RequestUndeliverable(message);
            Scheduler.ReportDeadLetter(message, target, DeadLetterReason.Undeliverable);
        }
    }

    /// <summary>Gets a token canceled as the silo starts to stop: waits that must not hold its stop end on it.</summary>
    internal CancellationToken StoppingToken => _stoppingSource.Token;

    /// <summary>Stops the sweep; the container disposes the node with the silo.</summary>
    public void Dispose()
    {
        _sweep.Dispose();
        _stoppingSource.Dispose();
    }

    /// <summary>The silo is stopping: its activations start no more processes, and its links are swept no more.</summary>
    internal void Stopping()
    {
        Volatile.Write(ref _stopping, true);
        _sweep.Dispose();
        _stoppingSource.Cancel();
        LogStopping(Logger, _running.Count, this);
    }

    /// <inheritdoc/>
    public override string ToString() => _silo is { } silo ? $"silo {silo}" : "this Orleans client";

    [LoggerMessage(Level = LogLevel.Warning, Message = "The activation of process {Name} could not be told of its end; its monitors hear of it when the activation goes or the name starts again")]
    private static partial void LogTellEndedFailed(ILogger logger, string name, Exception exception);

    [LoggerMessage(Level = LogLevel.Information, Message = "Stopping the {Count} processes of {Node}: their threads are stopped and their finally blocks run")]
    private static partial void LogStopping(ILogger logger, int count, ProcessNode node);
}
