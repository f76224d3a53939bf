using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// A channel that several green threads receive from, each message going to exactly one of them: work sharing, what
/// actor systems call a balancing pool. Unbounded, or bounded with backpressure as <see cref="Mailbox{T}"/> is.
/// </summary>
/// <remarks>
/// <para>
/// Each receiving green thread calls <see cref="CreateReceiveEvent"/> once and yields the event it gets again and
/// again: each call makes a new event, bound to the first thread that yields it. (The naming rule: <c>Recv()</c> gets a
/// mailbox's own reusable event, the same object every time, as <see cref="Mailbox{T}.Recv"/> does; a method that
/// makes a new object says so with <c>Create</c>.) A receiver that finds the mailbox empty parks; each
/// message sent wakes one parked receiver. Messages are taken in the order they were sent (first in, first out), so
/// one sender's messages are taken in order, though receivers running in parallel may handle them out of order.
/// </para>
/// <para>
/// Compared with <see cref="Mailbox{T}"/>, a send costs a few interlocked operations instead of one (the queue is a
/// <see cref="ConcurrentQueue{T}"/>, which several receivers can take from, and a bounded one counts its free room
/// with interlocked operations too). In exchange, no receiver sits idle while another has a backlog.
/// </para>
/// <para>Any thread may send; each receiving green thread uses its own receive event.</para>
/// </remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class SharedMailbox<T> : IMessageTarget<T>, IBoundedTarget<T>
{
    private readonly ConcurrentQueue<T> _messages = new();

    /// <summary>Receivers parked on an empty mailbox.</summary>
    private readonly WaiterQueue _receivers = new();

    /// <summary>Senders waiting for room; null when unbounded.</summary>
    private readonly WaiterQueue? _room;

    private readonly int _capacity;

    /// <summary>Room left in a bounded mailbox: a send takes one (an interlocked decrement), a take gives it back.</summary>
    private int _free;

    /// <summary>Initializes a new, empty, unbounded shared mailbox.</summary>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    public SharedMailbox(string? name = null) => Name = name;

    /// <summary>Initializes a new, empty shared mailbox that holds at most <paramref name="capacity"/> messages.</summary>
    /// <param name="capacity">The most messages the mailbox holds; at least 1.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is below 1.</exception>
    public SharedMailbox(int capacity, string? name = null)
        : this(name)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        _capacity = capacity;
        _free = capacity;
        _room = new WaiterQueue(releaseAt: Math.Max(1, capacity / 4));
    }

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Gets the most messages the mailbox holds, or null if it is unbounded.</summary>
    public int? Capacity => _room is null ? null : _capacity;

    /// <summary>Gets the number of messages in the mailbox; a snapshot.</summary>
    public int Count => _messages.Count;

    /// <summary>Gets the number of receivers parked on the empty mailbox (withdrawn ones included until a send drops them); for tests.</summary>
    internal int WaitingReceivers => _receivers.Count;

    /// <summary>Gets the receivers parked on the empty mailbox.</summary>
    internal WaiterQueue Receivers => _receivers;

    /// <summary>Gets a value indicating whether the mailbox holds no message; a snapshot.</summary>
    internal bool IsEmpty => _messages.IsEmpty;

    /// <inheritdoc/>
    WaiterQueue? IBoundedTarget<T>.Room => _room;

    /// <inheritdoc/>
    public void Send(T message)
    {
        if (_room is not null)
        {
            BoundedSends.SendBlocking(this, message, CancellationToken.None);
            return;
        }

        Enqueue(message);
    }

    /// <summary>As <see cref="Send(T)"/>; a blocked OS thread stops waiting when <paramref name="cancellationToken"/> is cancelled, and the message is then not sent.</summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled before there was room.</exception>
    /// <exception cref="InvalidOperationException">The mailbox is bounded and the caller is a green thread.</exception>
    public void Send(T message, CancellationToken cancellationToken)
    {
        if (_room is null)
        {
            Enqueue(message);
        }
        else
        {
            BoundedSends.SendBlocking(this, message, cancellationToken);
        }
    }

    /// <inheritdoc/>
    public bool TrySend(T message)
    {
        if (_room is null)
        {
            Enqueue(message);
            return true;
        }

        return TryAdd(message);
    }

    /// <inheritdoc/>
    public ValueTask SendAsync(T message, CancellationToken cancellationToken = default) => BoundedSends.SendAsync(this, message, cancellationToken);

    /// <inheritdoc/>
    public Event Put(T message) => BoundedSends.Put(this, message);

    /// <summary>
    /// Creates a reusable put event for this mailbox, which sends only while it is yielded: arm it with
    /// <see cref="PutEvent{T}.For"/> before each yield. Unlike <see cref="Put"/>, which sends at once when there is
    /// room, it may be a branch of a <see cref="Choice"/>, and sends only if chosen.
    /// </summary>
    /// <returns>A new, unarmed put event.</returns>
    public PutEvent<T> CreatePutEvent() => BoundedSends.CreatePutEvent(this);

    /// <summary>
    /// Makes a receive event for one receiving green thread: it yields the event for every message, and after it
    /// resumes <see cref="SharedReceiveEvent{T}.Value"/> holds the message. Call once per receiver.
    /// </summary>
    /// <returns>A new event, bound to the first green thread that yields it.</returns>
    public SharedReceiveEvent<T> CreateReceiveEvent() => new(this);

    /// <summary>
    /// Takes the oldest message if there is one, without ever parking. Any thread may call it, green or not: a
    /// shared mailbox binds no receiver, and this is the take its receive events make before they park.
    /// </summary>
    /// <remarks>
    /// A message taken here is not there for the parked receivers; one that a send woke for it finds the mailbox
    /// empty and parks again, as when a running receiver took it first. Taking from a bounded mailbox makes room, and
    /// releases waiting senders, as a receive does.
    /// <example>
    /// Draining what is left once the consumers' scheduler has been disposed:
    /// <code>
    /// scheduler.Dispose();
    /// while (jobs.TryRecv(out var job))
    /// {
    ///     Console.WriteLine($"never done: {job}");
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    /// <param name="message">The message taken, or the default value when there was none.</param>
    /// <returns>True if a message was taken; false if the mailbox was empty.</returns>
    public bool TryRecv([MaybeNullWhen(false)] out T message) => TryTake(out message);

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"SharedMailbox<{typeof(T).Name}>" : $"SharedMailbox<{typeof(T).Name}> '{Name}'";

    /// <inheritdoc/>
    bool IBoundedTarget<T>.TryAdd(T message) => TryAdd(message);

    /// <inheritdoc/>
    bool IBoundedTarget<T>.HasRoom() => Volatile.Read(ref _free) > 0;

    /// <summary>Takes the oldest message, if any, and gives its room back to waiting senders. Any receiver.</summary>
    internal bool TryTake([MaybeNullWhen(false)] out T message)
    {
        if (!_messages.TryDequeue(out message))
        {
            return false;
        }

        if (_room is { } room)
        {
            // The increment is a full fence, so a sender that started waiting before it is seen here.
            var free = Interlocked.Increment(ref _free);
            if (room.Count != 0 && (free >= room.ReleaseAt || _messages.IsEmpty))
            {
                room.Release(free);
            }
        }

        return true;
    }

    private bool TryAdd(T message)
    {
        // A compare-and-swap that never takes the count below zero: a decrement undone after the fact would hide
        // room for a moment, and a receiver giving room back in that moment would see none to release.
        var free = Volatile.Read(ref _free);
        while (true)
        {
            if (free <= 0)
            {
                return false;
            }

            var seen = Interlocked.CompareExchange(ref _free, free - 1, free);
            if (seen == free)
            {
                break;
            }

            free = seen;
        }

        Enqueue(message);
        return true;
    }

    private void Enqueue(T message)
    {
        // The enqueue is an interlocked operation: the fence between publishing the message and reading the count,
        // against a receiver that counts itself in and then looks at the queue (see SharedReceiveEvent).
        _messages.Enqueue(message);
        if (_receivers.Count != 0)
        {
            _receivers.Release(1);
        }
    }
}
