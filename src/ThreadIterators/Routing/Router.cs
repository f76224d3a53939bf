using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// Sends each message to one of several mailboxes, picked by a <see cref="RoutingStrategy"/>: the front of a pool of
/// consumers that each receive from their own mailbox. The mailboxes may be bounded; a router then pushes back as
/// its chosen mailbox does.
/// </summary>
/// <remarks>
/// <para>
/// A router keeps no messages of its own: each send goes straight into the chosen mailbox, so one sender's messages
/// to one consumer keep their order. Any thread may send. With several senders at once, round-robin's turn is kept
/// without an interlocked operation (the send already costs one), so two senders may now and then pick the same
/// mailbox.
/// </para>
/// <example>
/// <code>
/// var consumers = Enumerable.Range(0, 4).Select(i => new Mailbox&lt;Page&gt;(100, $"consumer {i}")).ToArray();
/// var router = new Router&lt;Page&gt;(RoutingStrategy.SmallestMailbox, consumers);
/// // In the producer's green thread:
/// yield return router.Put(page);   // parks while the chosen consumer's mailbox is full
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class Router<T> : IMessageTarget<T>
{
    private readonly Mailbox<T>[] _routees;

    /// <summary>The routee after the last one chosen.</summary>
    private int _next;

    /// <summary>Initializes a router over <paramref name="routees"/>.</summary>
    /// <param name="strategy">How each message's mailbox is picked.</param>
    /// <param name="routees">The mailboxes; at least one, none null, none twice.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <exception cref="ArgumentNullException"><paramref name="routees"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="routees"/> is empty, holds null or holds a mailbox twice.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="strategy"/> is not a defined strategy.</exception>
    public Router(RoutingStrategy strategy, IEnumerable<Mailbox<T>> routees, string? name = null)
    {
        ArgumentNullException.ThrowIfNull(routees);
        if (!Enum.IsDefined(strategy))
        {
            throw new ArgumentOutOfRangeException(nameof(strategy), strategy, "Choose RoundRobin or SmallestMailbox; for balancing, let the consumers share one SharedMailbox.");
        }

        _routees = [.. routees];
        if (_routees.Length == 0 || _routees.Any(r => r is null) || _routees.Distinct().Count() != _routees.Length)
        {
            throw new ArgumentException("A router needs at least one mailbox, none of them null and none twice.", nameof(routees));
        }

        Strategy = strategy;
        Name = name;
    }

    /// <summary>Gets how each message's mailbox is picked.</summary>
    public RoutingStrategy Strategy { get; }

    /// <summary>Gets the mailboxes messages are routed to.</summary>
    public IReadOnlyList<Mailbox<T>> Routees => _routees;

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Sends to the next mailbox; blocks an OS thread while it is full (see <see cref="Mailbox{T}.Send(T)"/>).</summary>
    /// <param name="message">The message.</param>
    /// <exception cref="InvalidOperationException">The mailbox is bounded and the caller is a green thread.</exception>
    public void Send(T message) => Pick().Send(message);

    /// <summary>
    /// Sends to the next mailbox if it has room; if not, to the first of the others (in routing order) that has.
    /// Never waits.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <returns>True if a mailbox took the message; false if every mailbox was full.</returns>
    public bool TrySend(T message)
    {
        var first = Pick();
        if (first.TrySend(message))
        {
            return true;
        }

        var start = Array.IndexOf(_routees, first);
        for (var i = 1; i < _routees.Length; i++)
        {
            if (_routees[(start + i) % _routees.Length].TrySend(message))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Sends to the next mailbox, waiting asynchronously while it is full.</summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room; the message is then not sent.</param>
    /// <returns>A task that completes when the message is in.</returns>
    public ValueTask SendAsync(T message, CancellationToken cancellationToken = default) => Pick().SendAsync(message, cancellationToken);

    /// <summary>Gets the event a green thread yields to send to the next mailbox, parking while it is full.</summary>
    /// <param name="message">The message.</param>
    /// <returns>The event to yield.</returns>
    /// <exception cref="InvalidOperationException">The caller is not a green thread.</exception>
    public Event Put(T message) => Pick().Put(message);

    /// <inheritdoc/>
    public override string ToString() => $"Router<{TypeNames.Of<T>()}> ({Strategy}, {_routees.Length} mailboxes)" + (Name is null ? string.Empty : $" '{Name}'");

    /// <summary>Chooses the mailbox for the next message.</summary>
    private Mailbox<T> Pick()
    {
        var routees = _routees;
        var next = Volatile.Read(ref _next);
        if (next >= routees.Length)
        {
            next = 0;
        }

        var chosen = next;
        if (Strategy == RoutingStrategy.SmallestMailbox)
        {
            // An idle receiver with nothing queued wins at once; otherwise the fewest messages, ties to the earliest
            // in turn from the last choice.
            var fewest = int.MaxValue;
            for (var i = 0; i < routees.Length; i++)
            {
                var index = next + i < routees.Length ? next + i : next + i - routees.Length;
                var routee = routees[index];
                var count = routee.Count;
                if (count == 0 && routee.IsReceiverParked)
                {
                    chosen = index;
                    break;
                }

                if (count < fewest)
                {
                    fewest = count;
                    chosen = index;
                }
            }
        }

        Volatile.Write(ref _next, chosen + 1);
        return routees[chosen];
    }
}
