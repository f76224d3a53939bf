using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace ThreadIterators;

// The shared mailbox's protocols. Its messages sit in a ConcurrentQueue<T>, which any number of receivers take from;
// each receiver yields its own SharedReceiveEvent, bound to the first thread that yields it (another thread yielding it
// is faulted).
//
// A receiver (SharedReceiveEvent<T>.Receive, on its worker):
//   1. Take (TryTake: a dequeue). A message is there: go on. None, and the mailbox is at its end (IsDrained): the
//      receive gets the end.
//   2. Join the receivers' WaiterQueue (a full fence).
//   3. Look (IsEmpty, IsDrained) without taking. Empty and not at the end, or the withdrawal loses (a sender has
//      already woken it): parked. Otherwise withdraw and go back to step 1.
//   4. Woken (Resume): back to step 1. A receiver that was running may have taken the message; then it waits again.
// It only looks after queuing itself, and withdraws before taking, because from the moment it is queued a sender may
// wake it and another worker run it. A receiver woken for a message that gives up before it takes it (disposed, or a
// choice's losing branch) passes the wake-up on to the next receiver. TryRecv is step 1 alone, from any thread: the
// protocol already lets a running receiver take the message a parked one was woken for, and a take's release of room
// wakes senders from any OS thread.
// A sender (TryAdd, Enqueue): takes one unit of room with a compare-and-swap that never takes the count below zero (a
// decrement undone after the fact would hide room for a moment, and a receiver giving room back in that moment would
// release nobody); enqueues (an interlocked operation, so a full fence); then reads the receiver count and, if any
// wait, wakes one, alongside: the sender goes on running. A take gives its room back with an interlocked increment,
// then releases waiting senders as a bounded Mailbox<T>'s take does (BoundedSends). An unbounded mailbox counts its
// room too, from 2^61, so that the count can carry the completed mark.
// So a send costs two interlocked operations (the room and the enqueue), and a lock and a compare-and-swap when it
// wakes a receiver, and a take two (the dequeue and the room), against one for a Mailbox<T> send: the price of letting
// whichever consumer is free take the next message. (Before completion, an unbounded shared mailbox did not count its
// room, and its send and take paid one each: work sharing through one took 18 instead of 31 ns per message on one
// worker; docs/waiting.md, "Costs and targets".)
//
// Completion. A ConcurrentQueue<T> cannot be frozen at a position, so the cut is the room count that every send takes
// before it enqueues:
//   1. TryComplete records the error with a compare-and-swap (the first completion wins), then sets the Completed mark
//      in the room count (Interlocked.Or). A send whose compare-and-swap took room before the mark is delivered; one
//      after it finds the mark and is refused, with nothing enqueued.
//   2. The end is the mark with all the room given back (IsDrained): every message sent before has been taken. The
//      party that brings the count there wakes every parked receiver: the completion, if nothing was left, or the take
//      of the last message, after its increment. Waiting senders are released by the completion, and refused.
//   3. A receive that takes nothing looks at IsDrained: the end. Otherwise it queues (a full fence) and looks once
//      more, parking only if the mailbox is empty and not at its end: either that look sees the end or the release that
//      brought the count there sees the receiver.
// A flag read before and after the enqueue would not do: a sender that read "open", then enqueued after the last
// receiver had found the queue empty and reported the end, could not tell whether its message would ever be taken.

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
/// <see cref="Complete"/> ends the mailbox as <see cref="Mailbox{T}.Complete"/> does: the receivers take every
/// message sent before, then each of their receives gets the end (<see cref="SharedReceiveEvent{T}.IsCompleted"/>),
/// and later sends are refused.
/// </para>
/// <para>
/// Compared with <see cref="Mailbox{T}"/>, a send costs a few interlocked operations instead of one (the queue is a
/// <see cref="ConcurrentQueue{T}"/>, which several receivers can take from, and the mailbox counts the room its
/// messages hold, so that completion knows when the last one has been taken). In exchange, no receiver sits idle
/// while another has a backlog.
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

    /// <summary>In <see cref="_free"/>: the mailbox was completed, and sends are refused.</summary>
    private const long Completed = 1L << 62;

    /// <summary>The room of an unbounded mailbox: more messages than memory holds, so never used up.</summary>
    private const long UnboundedRoom = 1L << 61;

    /// <summary>Marks a completion without an error in <see cref="_completion"/>.</summary>
    private static readonly object s_noError = new();

    /// <summary>The room of an empty mailbox: the capacity, or <see cref="UnboundedRoom"/>.</summary>
    private readonly long _capacity;

    /// <summary>
    /// Room left: a send takes one with a compare-and-swap, and a take gives it back with an interlocked increment,
    /// bounded or not; with <see cref="Completed"/> once completed. So the room is all back, with the mark, exactly
    /// when the mailbox is completed and every message sent before has been taken: the end.
    /// </summary>
    private long _free;

    /// <summary>
    /// The error the mailbox was completed with, or <see cref="s_noError"/>; null until completed. Set, by the one
    /// completion that wins it, before <see cref="Completed"/> is.
    /// </summary>
    private object? _completion;

    /// <summary>Initializes a new, empty, unbounded shared mailbox.</summary>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    public SharedMailbox(string? name = null)
    {
        Name = name;
        _capacity = UnboundedRoom;
        _free = UnboundedRoom;
    }

    /// <summary>Initializes a new, empty shared mailbox that holds at most <paramref name="capacity"/> messages.</summary>
    /// <param name="capacity">The most messages the mailbox holds; at least 1.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is below 1.</exception>
    public SharedMailbox(int capacity, string? name = null)
        : this(name)
    {
        if (capacity < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(capacity), capacity, $"{this} must hold at least 1 message; for no limit, leave out the capacity.");
        }

        _capacity = capacity;
        _free = capacity;
        _room = new WaiterQueue(releaseAt: Math.Max(1, capacity / 4));
    }

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Gets the most messages the mailbox holds, or null if it is unbounded.</summary>
    public int? Capacity => _room is null ? null : (int)_capacity;

    /// <summary>
    /// Gets a value indicating whether the mailbox has been completed: it takes no more messages. Its receivers may
    /// still have messages sent before to take; each receive gets the end after the last of them. Any thread.
    /// </summary>
    public bool IsCompleted => (Volatile.Read(ref _free) & Completed) != 0;

    /// <summary>Gets the number of messages in the mailbox; a snapshot.</summary>
    public int Count => _messages.Count;

    /// <summary>Gets the number of receivers parked on the empty mailbox (withdrawn ones included until a send drops them); for tests.</summary>
    internal int WaitingReceivers => _receivers.Count;

    /// <summary>Gets the receivers parked on the empty mailbox.</summary>
    internal WaiterQueue Receivers => _receivers;

    /// <summary>Gets a value indicating whether the mailbox holds no message; a snapshot.</summary>
    internal bool IsEmpty => _messages.IsEmpty;

    /// <summary>
    /// Gets a value indicating whether the mailbox was completed and every message sent before has been taken, so
    /// every receive gets the end. Once true, true for good. Any thread.
    /// </summary>
    internal bool IsDrained => Volatile.Read(ref _free) == (Completed | _capacity);

    /// <summary>Gets the error the mailbox was completed with, or null.</summary>
    internal Exception? CompletionError => Volatile.Read(ref _completion) as Exception;

    /// <inheritdoc/>
    WaiterQueue? IBoundedTarget<T>.Room => _room;

    /// <inheritdoc/>
    GreenThread? IDrained.Drainer => null;

    /// <inheritdoc/>
    /// <exception cref="ChannelClosedException">
    /// The mailbox was completed (before the send, or while it waited for room), and the message was not sent. The
    /// inner exception is the error the mailbox was completed with, if any.
    /// </exception>
    public void Send(T message)
    {
        if (_room is not null)
        {
            BoundedSends.SendBlocking(this, message, CancellationToken.None);
        }
        else if (!TryAdd(message))
        {
            throw Refusal();
        }
    }

    /// <summary>As <see cref="Send(T)"/>; a blocked OS thread stops waiting when <paramref name="cancellationToken"/> is cancelled, and the message is then not sent.</summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled before there was room.</exception>
    /// <exception cref="InvalidOperationException">The mailbox is bounded and the caller is a green thread.</exception>
    /// <exception cref="ChannelClosedException">The mailbox was completed, and the message was not sent.</exception>
    public void Send(T message, CancellationToken cancellationToken)
    {
        if (_room is null)
        {
            Send(message);
        }
        else
        {
            BoundedSends.SendBlocking(this, message, cancellationToken);
        }
    }

    /// <summary>Sends a message if there is room, without waiting; always, into an unbounded mailbox that has not been completed.</summary>
    /// <param name="message">The message.</param>
    /// <returns>True if the message was sent; false if the bounded mailbox was full or the mailbox was completed.</returns>
    public bool TrySend(T message) => TryAdd(message);

    /// <inheritdoc/>
    /// <remarks>The task faults with a <see cref="ChannelClosedException"/> if the mailbox is completed before the message went in.</remarks>
    public ValueTask SendAsync(T message, CancellationToken cancellationToken = default) => BoundedSends.SendAsync(this, message, cancellationToken);

    /// <inheritdoc/>
    /// <exception cref="ChannelClosedException">
    /// The mailbox was completed. A put that parked for room and finds the mailbox completed when it resumes ends its
    /// thread with this exception.
    /// </exception>
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
    /// <returns>True if a message was taken; false if the mailbox was empty (or completed, with every message taken).</returns>
    public bool TryRecv([MaybeNullWhen(false)] out T message) => TryTake(out message);

    /// <summary>
    /// Completes the mailbox: no message can be sent after this, and once the receivers have taken every message sent
    /// before, each of their receives gets the end (<see cref="SharedReceiveEvent{T}.IsCompleted"/>) instead of
    /// waiting for more. Any thread, once.
    /// </summary>
    /// <remarks>
    /// Every receiver parked on the empty mailbox is woken and gets the end, each in its own receive; while messages
    /// are left, the receivers take them first, and the take of the last wakes the rest. Sends are refused as after
    /// <see cref="Mailbox{T}.Complete"/>: <see cref="Send(T)"/> throws a <see cref="ChannelClosedException"/>,
    /// <see cref="TrySend"/> returns false, and senders waiting for room stop waiting and fail. A send that races the
    /// completion either is refused or its message is taken before the end. Completing a second time throws;
    /// <see cref="TryComplete"/> returns false instead.
    /// </remarks>
    /// <param name="error">
    /// Why the mailbox ends early, if it does: the inner exception of the <see cref="ChannelClosedException"/> that
    /// reading <see cref="SharedReceiveEvent{T}.Value"/> past the end, and every refused send, throw. Null for a normal
    /// end.
    /// </param>
    /// <exception cref="ChannelClosedException">The mailbox was completed already.</exception>
    public void Complete(Exception? error = null)
    {
        if (!TryComplete(error))
        {
            throw new ChannelClosedException($"{this} was completed already; a mailbox is completed once (call TryComplete where several parties may complete it).");
        }
    }

    /// <summary>Completes the mailbox unless it was completed already, as <see cref="Complete"/> does. Any thread.</summary>
    /// <param name="error">Why the mailbox ends early, or null for a normal end; see <see cref="Complete"/>.</param>
    /// <returns>True if this call completed the mailbox; false if it was completed already (the first error stays).</returns>
    public bool TryComplete(Exception? error = null)
    {
        // One completion wins the record of the error; then the mark cuts the sends: a send's compare-and-swap that
        // took room before it is delivered, and every one after it is refused.
        if (Interlocked.CompareExchange(ref _completion, error ?? s_noError, null) is not null)
        {
            return false;
        }

        var free = Interlocked.Or(ref _free, Completed);

        // Both after the mark, a full fence. Nothing outstanding: the end is now, for every parked receiver (one that
        // parks later looks at the room after queuing, and finds the end). Otherwise the take of the last message
        // wakes them. Waiting senders go now, and are refused.
        if (free == _capacity)
        {
            ReleaseReceiversAtEnd();
        }

        if (_room is { } room && room.Count != 0)
        {
            room.Release(int.MaxValue);
        }

        return true;
    }

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"SharedMailbox<{TypeNames.Of<T>()}>" : $"SharedMailbox<{TypeNames.Of<T>()}> '{Name}'";

    /// <inheritdoc/>
    bool IBoundedTarget<T>.TryAdd(T message) => TryAdd(message);

    /// <inheritdoc/>
    bool IBoundedTarget<T>.HasRoom() => Volatile.Read(ref _free) > 0;

    /// <inheritdoc/>
    ChannelClosedException IBoundedTarget<T>.Refusal() => Refusal();

    /// <summary>
    /// Takes the oldest message, if any, and gives its room back: to waiting senders, or, for the last message of a
    /// completed mailbox, as the end to every parked receiver. Any receiver.
    /// </summary>
    internal bool TryTake([MaybeNullWhen(false)] out T message)
    {
        if (!_messages.TryDequeue(out message))
        {
            return false;
        }

        // The increment is a full fence, so a sender that started waiting before it is seen here, and so is a
        // receiver that queued before it (it looks at the room after queuing).
        var free = Interlocked.Increment(ref _free);
        if (free < Completed)
        {
            if (_room is { } room && room.Count != 0 && (free >= room.ReleaseAt || _messages.IsEmpty))
            {
                room.Release((int)free);
            }
        }
        else if (free == (Completed | _capacity))
        {
            ReleaseReceiversAtEnd();
        }

        return true;
    }

    /// <summary>Refuses sends once completed, and takes room in a bounded mailbox; false if completed or full.</summary>
    private bool TryAdd(T message)
    {
        // A compare-and-swap that never takes the count below zero: a decrement undone after the fact would hide
        // room for a moment, and a receiver giving room back in that moment would see none to release. The same
        // swap orders the send against a completion, which sets its mark in the same word.
        var free = Volatile.Read(ref _free);
        while (true)
        {
            if (free <= 0 || free >= Completed)
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

    /// <summary>Wakes every receiver parked on the mailbox, whose end has come.</summary>
    private void ReleaseReceiversAtEnd()
    {
        if (_receivers.Count != 0)
        {
            _receivers.Release(int.MaxValue);
        }
    }

    /// <summary>Makes the exception a refused send throws, naming the mailbox, with the completion's error inside.</summary>
    private ChannelClosedException Refusal() =>
        new($"{this} was completed: it takes no more messages, and this one was not sent.", CompletionError);

    private void Enqueue(T message)
    {
        // The enqueue is an interlocked operation: the fence between publishing the message and reading the count,
        // against a receiver that counts itself in and then looks at the queue (see SharedReceiveEvent).
        _messages.Enqueue(message);
        OsThreadContext.Current.CountSend();
        if (_receivers.Count != 0)
        {
            _receivers.Release(1);
        }
    }
}
