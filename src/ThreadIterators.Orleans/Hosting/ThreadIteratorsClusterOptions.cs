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

    internal IReadOnlyDictionary<string, ProcessKind> Kinds => _kinds;

    /// <summary>Gets or sets how often idle links are retired (ProcessNode.Sweep); infinite in tests that sweep by hand.</summary>
    internal TimeSpan LinkSweepPeriod { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Registers a kind of process: a message sent to <c>kind/key</c> when no process holds that name starts one,
    /// running <paramref name="body"/> with the name and its inbox, on the silo Orleans places it.
    /// </summary>
    /// <typeparam name="T">The type of message the process receives.</typeparam>
    /// <param name="kind">The kind: the part of a name before its first '/'; not empty, without '/'.</param>
    /// <param name="body">Makes the process's body from its name and its inbox.</param>
    /// <returns>These options.</returns>
    /// <exception cref="ArgumentException"><paramref name="kind"/> is empty, holds '/', or is registered already.</exception>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public ThreadIteratorsClusterOptions AddProcess<T>(string kind, Func<string, Mailbox<T>, IEnumerable<Event>> body)
    {
        ArgumentNullException.ThrowIfNull(kind);
        ArgumentNullException.ThrowIfNull(body);
        if (kind.Length == 0 || kind.Contains('/', StringComparison.Ordinal))
        {
            throw new ArgumentException($"A process kind is not empty and has no '/'; \"{kind}\" is not one.", nameof(kind));
        }

        if (!_kinds.TryAdd(kind, new ProcessKind<T>(kind, body)))
        {
            throw new ArgumentException($"The process kind \"{kind}\" is registered already.", nameof(kind));
        }

        return this;
    }
}
