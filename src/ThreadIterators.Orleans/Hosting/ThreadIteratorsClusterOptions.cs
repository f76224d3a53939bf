using System;
using System.Collections.Generic;

namespace ThreadIterators.Orleans;

/// <summary>
/// How a silo runs green threads: its scheduler's options, and the kinds of process it starts on demand when a
/// message arrives for a name no process holds yet. Given to
/// <see cref="ThreadIteratorsSiloBuilderExtensions.AddThreadIterators"/>.
/// </summary>
/// <remarks>
/// A process name is <c>kind/key</c> (<c>room/lobby</c>), or a kind alone. Every silo of a cluster registers the
/// same kinds, as every silo of an Orleans cluster holds the same grain classes: a name is activated wherever Orleans
/// places it.
/// </remarks>
public sealed class ThreadIteratorsClusterOptions
{
    private readonly Dictionary<string, ProcessKind> _kinds = new(StringComparer.Ordinal);
    private int _maxBatchSize = 1024;
    private int _putWindow = 256;

    /// <summary>Gets or sets the options of the silo's scheduler.</summary>
    public SchedulerOptions Scheduler { get; set; } = new();

    /// <summary>
    /// Gets or sets how many messages one grain call carries at most. Sends from one silo to one process queue while
    /// the call before them is in flight, and go in the next call, up to this many: one call in flight per pair is
    /// what keeps them in order. 1024 by default.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1.</exception>
    public int MaxBatchSize
    {
        get => _maxBatchSize;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1);
            _maxBatchSize = value;
        }
    }

    /// <summary>
    /// Gets or sets how many messages put (<see cref="ProcessRef{T}.Put"/>) from this silo to one process may be on
    /// their way at once: queued or in flight, not yet taken into the process's inbox. A put beyond it parks its green
    /// thread until the inbox has taken an earlier one. 256 by default.
    /// </summary>
    /// <remarks>
    /// With a process whose inbox is bounded (a capacity given to <see cref="AddProcess{T}(string, int, Func{string, Mailbox{T}, IEnumerable{Event}})"/>
    /// or <see cref="ClusterProcesses.SpawnAsync{T}(string, int, Func{Mailbox{T}, IEnumerable{Event}})"/>), a message is
    /// taken only when there is room, so a producer that puts runs at most this many messages plus the capacity ahead
    /// of the process's receives, wherever it runs.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException">The value is less than 1.</exception>
    public int PutWindow
    {
        get => _putWindow;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1);
            _putWindow = value;
        }
    }

    internal IReadOnlyDictionary<string, ProcessKind> Kinds => _kinds;

    /// <summary>
    /// Gets or sets how long a batch waits in a process's activation for room in its full bounded inbox before the rest
    /// goes back to the sender, to be sent again (ProcessGrain.DeliverWhenRoomAsync); short in tests, so that they see it.
    /// </summary>
    internal TimeSpan RoomPatience { get; set; } = TimeSpan.FromMilliseconds(500);

    /// <summary>Gets or sets how often idle links are retired (ProcessNode.Sweep); infinite in tests that sweep by hand.</summary>
    internal TimeSpan LinkSweepPeriod { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Registers a kind of process: a message sent to <c>kind/key</c> when no process holds that name starts one,
    /// running <paramref name="body"/> with the name and its inbox, on the silo Orleans places it. Its inbox is
    /// unbounded.
    /// </summary>
    /// <typeparam name="T">The type of message the process receives.</typeparam>
    /// <param name="kind">The kind: the part of a name before its first '/'; not empty, without '/'.</param>
    /// <param name="body">Makes the process's body from its name and its inbox.</param>
    /// <returns>These options.</returns>
    /// <exception cref="ArgumentException"><paramref name="kind"/> is empty, holds '/', or is registered already.</exception>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public ThreadIteratorsClusterOptions AddProcess<T>(string kind, Func<string, Mailbox<T>, IEnumerable<Event>> body) =>
        Add(kind, capacity: null, body);

    /// <summary>
    /// Registers a kind of process whose inbox holds at most <paramref name="capacity"/> messages: a message from
    /// another silo, or one that finds the inbox full, is taken only when there is room, so senders that put
    /// (<see cref="ProcessRef{T}.Put"/>) wait for the process. Otherwise as <see cref="AddProcess{T}(string, Func{string, Mailbox{T}, IEnumerable{Event}})"/>.
    /// </summary>
    /// <typeparam name="T">The type of message the process receives.</typeparam>
    /// <param name="kind">The kind: the part of a name before its first '/'; not empty, without '/'.</param>
    /// <param name="capacity">The most messages its inbox holds; at least 1.</param>
    /// <param name="body">Makes the process's body from its name and its inbox.</param>
    /// <returns>These options.</returns>
    /// <exception cref="ArgumentException"><paramref name="kind"/> is empty, holds '/', or is registered already.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is less than 1.</exception>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public ThreadIteratorsClusterOptions AddProcess<T>(string kind, int capacity, Func<string, Mailbox<T>, IEnumerable<Event>> body)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        return Add(kind, capacity, body);
    }

    private ThreadIteratorsClusterOptions Add<T>(string kind, int? capacity, Func<string, Mailbox<T>, IEnumerable<Event>> body)
    {
        ArgumentNullException.ThrowIfNull(kind);
        ArgumentNullException.ThrowIfNull(body);
        if (kind.Length == 0 || kind.Contains('/', StringComparison.Ordinal))
        {
            throw new ArgumentException($"A process kind is not empty and has no '/'; \"{kind}\" is not one.", nameof(kind));
        }

        if (!_kinds.TryAdd(kind, new ProcessKind<T>(kind, capacity, body)))
        {
            throw new ArgumentException($"The process kind \"{kind}\" is registered already.", nameof(kind));
        }

        return this;
    }
}
