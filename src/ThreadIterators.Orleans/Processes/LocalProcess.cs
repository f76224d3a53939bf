using System;
using System.Collections.Concurrent;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// A named process running on this silo: its green thread and its inbox, held by the grain activation of its name
/// (<see cref="ProcessGrain"/>) for as long as the thread runs.
/// </summary>
internal abstract class LocalProcess
{
    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);

    protected LocalProcess(string name)
    {
        Name = name;
        Incarnation = Guid.NewGuid();
    }

    internal string Name { get; }

    /// <summary>
    /// Gets what tells this run of the name from another: a process that ends and is started again, here or on another
    /// silo, is a new incarnation, and a sender's retry never reaches one its first attempt may not have.
    /// </summary>
    internal Guid Incarnation { get; }

    internal abstract GreenThread Thread { get; }

    /// <summary>Gets a task completed as the process's thread ends, from its body's <c>finally</c> block.</summary>
    internal Task Ended => _ended.Task;

    /// <summary>Gets why the process ended; read once <see cref="Ended"/> has completed.</summary>
    internal ProcessExitReason ExitReason { get; private set; }

    /// <summary>Gets the fault's type and message, or the stop's reason; read once <see cref="Ended"/> has completed.</summary>
    internal string? ExitDetail { get; private set; }

    /// <summary>Gets why the process was stopped by a link (<see cref="StopByLink"/>), or null.</summary>
    internal string? StopDetail { get; private set; }

    /// <summary>The silos of the threads linked to this process, by their links' monitors; made by the first link.</summary>
    private ConcurrentDictionary<Guid, SiloAddress>? _linkers;

    /// <summary>Records that a thread on <paramref name="silo"/> linked to the process, by the link's monitor. The activation's turn.</summary>
    internal void AddLinker(Guid monitor, SiloAddress silo)
    {
        if (_linkers is null)
        {
            Interlocked.CompareExchange(ref _linkers, new ConcurrentDictionary<Guid, SiloAddress>(), null);
        }

        _linkers[monitor] = silo;
    }

    /// <summary>Forgets a link, taken back or ended. The activation's turn.</summary>
    internal void RemoveLinker(Guid monitor) => _linkers?.TryRemove(monitor, out _);

    /// <summary>Gets whether a thread on <paramref name="silo"/> is linked to the process. Any thread.</summary>
    internal bool IsLinkedFrom(SiloAddress silo) => Volatile.Read(ref _linkers) is { } linkers && linkers.Values.Contains(silo);

    /// <summary>Stops the process because a thread linked to it ended abnormally; its monitors read <paramref name="detail"/>.</summary>
    internal void StopByLink(string detail)
    {
        // Set before the stop, which the thread's end may follow at once on another worker; taken back if a stop was
        // under way already (the silo's, a move's), which keeps its own reason.
        var previous = StopDetail;
        StopDetail = detail;
        if (!Thread.Stop(detail))
        {
            StopDetail = previous;
        }
    }

    /// <summary>Records how the process ended and completes <see cref="Ended"/>; the ending thread's worker.</summary>
    internal void End(ProcessExitReason reason, string? detail)
    {
        ExitReason = reason;
        ExitDetail = detail;
        _ended.TrySetResult();
    }

    internal abstract Type MessageType { get; }

    /// <summary>
    /// Puts a message that came over the wire into the inbox, if it is of the inbox's type and, for a bounded inbox,
    /// there is room; never blocks. Any thread.
    /// </summary>
    internal abstract InboxOutcome TryDeliver(object? message);

    /// <summary>
    /// Puts a message of the inbox's type into the bounded inbox once there is room; a message the inbox refuses (the
    /// process ended) is a dead letter here. Canceled by <paramref name="cancellationToken"/> with the message not
    /// taken. The activation's turn.
    /// </summary>
    internal abstract Task DeliverWhenRoomAsync(object? message, CancellationToken cancellationToken);
}
