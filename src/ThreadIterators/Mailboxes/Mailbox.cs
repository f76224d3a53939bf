using System;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// A channel into one green thread, unbounded or bounded. Any thread, green or not, may send; one green thread
/// receives by yielding <see cref="Recv"/>.
/// </summary>
/// <remarks>
/// <para>
/// An unbounded mailbox (the default) never blocks a sender: <see cref="Send(T)"/> always returns at once. A bounded
/// mailbox, made with a capacity, holds at most that many messages and pushes back on its senders while full: a
/// green thread yields <see cref="Put"/> and parks until there is room, an OS thread blocks in
/// <see cref="Send(T)"/> or awaits <see cref="SendAsync"/>, and <see cref="TrySend"/> never waits.
/// Messages from one sender arrive in the order that sender sent them, and none is lost. The first
/// green thread that yields <see cref="Recv"/> becomes the mailbox's receiver; another green thread that tries to
/// receive while the receiver is alive is faulted with an <see cref="InvalidOperationException"/>. Once the
/// receiver has exited, another green thread may take its place.
/// </para>
/// <para>
/// A send costs one interlocked compare-and-swap, which also tells the sender whether the receiver is parked and must
/// be woken. Messages sit in a ring of slots that is reused while the receiver keeps up, so steady-state messaging
/// allocates nothing; a mailbox that fills its ring gets a larger one.
/// </para>
/// <para>
/// In a bounded mailbox a sender woken because there is room may find it taken by a sender that did not wait; it then
/// waits again. Waiting senders are woken oldest first, once a quarter of the capacity is free (or the receiver has
/// emptied the mailbox), so a producer that outpaces its consumer parks once per quarter of the capacity rather
/// than once per message.
/// </para>
/// <example>
/// <code>
/// var inbox = new Mailbox&lt;string&gt;("greetings");
/// scheduler.Spawn(Print(inbox));
/// inbox.Send("hello");
///
/// static IEnumerable&lt;Event&gt; Print(Mailbox&lt;string&gt; inbox)
/// {
///     var message = inbox.Recv();
///     yield return message;
///     Console.WriteLine(message.Value);
/// }
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class Mailbox<T> : IMessageTarget<T>, IBoundedTarget<T>
{
    /// <summary>Slots of a mailbox's first segment: enough for a reply or a few children's answers.</summary>
    private const int FirstCapacity = 4;

    /// <summary>Each segment linked behind a full one has this many times its slots...</summary>
    private const int Growth = 4;

    /// <summary>...up to this many (a megabyte of <see cref="long"/> messages), so a flood allocates in bounded steps.</summary>
    private const int MaxCapacity = 64 * 1024;

    /// <summary>
    /// The smallest segment given back when its mailbox empties. Smaller ones stay: shrinking every 16- and 64-slot
    /// segment made a two-worker ring, whose mailboxes empty every few messages, grow and shrink all the time
    /// (N = 10,000, M = 1,000: 40 to 49 ns per hop against 16 to 18 without shrinking).
    /// </summary>
    private const int ShrinkFrom = 256;

    /// <summary>
    /// Stands in <see cref="_tail"/> while the receiver is parked on a mailbox that never had a message. Frozen, so a
    /// send's fast path turns away from it to the slow path, which replaces it.
    /// </summary>
    private static readonly MailboxSegment<T> s_parkedEmpty = new(2) { TailWord = MailboxSegment<T>.Frozen };

    /// <summary>
    /// The segment senders append to; null until the first message (an empty mailbox costs no slots), or
    /// <see cref="s_parkedEmpty"/>. Any thread.
    /// </summary>
    private MailboxSegment<T>? _tail;

    /// <summary>
    /// The segment the receiver takes from. Receiver only, except that the sender that creates the first segment
    /// sets it once.
    /// </summary>
    private MailboxSegment<T>? _head;

    /// <summary>The position in <see cref="_head"/> of the next message to take. Receiver only.</summary>
    private long _headPosition;

    /// <summary>The green thread that receives; set when it first yields <see cref="Recv"/>.</summary>
    private GreenThread? _receiver;

    /// <summary>Parks the receiver has made. Receiver only (read by <see cref="Abandon"/> once the workers have stopped).</summary>
    private int _parks;

    /// <summary>
    /// Parks resolved: counted by the one party that took a park's mark (a sender, once it has read
    /// <see cref="_receiver"/>, or <see cref="Abandon"/>), so <see cref="Abandon"/> can wait for a sender still on its
    /// way to wake the abandoned receiver. The parties of successive parks are ordered by the wake-ups themselves.
    /// </summary>
    private int _wakes;

    /// <summary>The one receive event of this mailbox, reused for every message.</summary>
    private readonly ReceiveEvent<T> _receive;

    /// <summary>Initializes a new, empty, unbounded mailbox.</summary>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    public Mailbox(string? name = null)
    {
        Name = name;
        _receive = new ReceiveEvent<T>(this);
    }

    /// <summary>Initializes a new, empty mailbox that holds at most <paramref name="capacity"/> messages.</summary>
    /// <param name="capacity">The most messages the mailbox holds, from 1 to 1,048,576.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <remarks>The slots are allocated here: the capacity rounded up to a power of two, at least.</remarks>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is below 1 or above 1,048,576.</exception>
    public Mailbox(int capacity, string? name = null)
        : this(name)
    {
        if (capacity < 1 || capacity > MaxBoundedCapacity)
        {
            throw new ArgumentOutOfRangeException(
                nameof(capacity),
                capacity,
                $"A bounded mailbox holds from 1 to {MaxBoundedCapacity:N0} messages; for more, use an unbounded mailbox with a {nameof(CreditWindow)}.");
        }

        // The one segment, for good: a bounded mailbox never grows, shrinks or pools its slots, and its receiver
        // never waits for a first segment. At least two slots: with one, a full slot's sequence (position + 1) would
        // read as free for the next position.
        var segment = new MailboxSegment<T>(
            (int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(2, capacity)),
            capacity,
            new WaiterQueue(releaseAt: Math.Max(1, capacity / 4)));
        _tail = segment;
        _head = segment;
    }

    /// <summary>The largest capacity of a bounded mailbox, whose slots are allocated up front.</summary>
    internal const int MaxBoundedCapacity = 1 << 20;

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Gets the most messages the mailbox holds, or null if it is unbounded.</summary>
    public int? Capacity => Room is null ? null : _head!.Bound;

    /// <summary>
    /// Gets the number of messages in the mailbox: a snapshot, exact when the receiver reads it while no send is under
    /// way (a sender's message counts from the moment it reserved its slot).
    /// </summary>
    public int Count
    {
        get
        {
            // Taken before appended, so a snapshot errs towards more, never below zero, unless the receiver moved to
            // the next segment between the two reads of its side (then it is off for that moment).
            var head = Volatile.Read(ref _head);
            var position = Volatile.Read(ref _headPosition);
            var tail = Volatile.Read(ref _tail);
            if (head is null || tail is null || tail == s_parkedEmpty)
            {
                return 0;
            }

            var taken = Volatile.Read(ref head.Base) + position;
            var count = Volatile.Read(ref tail.Base) + MailboxSegment<T>.PositionOf(Volatile.Read(ref tail.TailWord)) - taken;
            return count <= 0 ? 0 : (int)Math.Min(count, int.MaxValue);
        }
    }

    /// <summary>Gets the senders waiting for room; null for an unbounded mailbox. Any thread: a bounded mailbox's tail never changes.</summary>
    private WaiterQueue? Room => Volatile.Read(ref _tail)?.Room;

    /// <summary>Gets a value indicating whether the receiver is parked on an empty mailbox; for tests.</summary>
    internal bool IsReceiverParked => Volatile.Read(ref _tail) is { } tail
        && (tail == s_parkedEmpty || (Volatile.Read(ref tail.TailWord) & MailboxSegment<T>.Parked) != 0);

    /// <summary>Gets the number of senders waiting for room in a bounded mailbox; for tests.</summary>
    internal int WaitingSenders => Room?.Count ?? 0;

    /// <inheritdoc/>
    WaiterQueue IBoundedTarget<T>.Room => Room!;

    /// <summary>Gets the segment senders append to, if any; for tests.</summary>
    internal object? TailSegment => Volatile.Read(ref _tail);

    /// <summary>Gets the green thread that receives from this mailbox, or null before any thread received.</summary>
    public GreenThread? Receiver => Volatile.Read(ref _receiver);

    /// <summary>
    /// Puts a message into the mailbox, waking the receiver if it is parked on <see cref="Recv"/>. An unbounded
    /// mailbox never blocks, and any thread may call this. A full bounded mailbox blocks the calling OS thread until
    /// there is room; a green thread cannot block its worker, so it yields <see cref="Put"/> instead.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <exception cref="InvalidOperationException">The mailbox is bounded and the caller is a green thread.</exception>
    public void Send(T message)
    {
        var tail = Volatile.Read(ref _tail);
        if (tail is not null && tail.Room is not null)
        {
            BoundedSends.SendBlocking(this, message, CancellationToken.None);
            return;
        }

        Append(message, tail, alongside: false);
    }

    /// <summary>
    /// As <see cref="Send(T)"/>; a blocked OS thread stops waiting when <paramref name="cancellationToken"/> is
    /// cancelled, and the message is then not sent.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled before there was room.</exception>
    /// <exception cref="InvalidOperationException">The mailbox is bounded and the caller is a green thread.</exception>
    public void Send(T message, CancellationToken cancellationToken)
    {
        if (Room is null)
        {
            Send(message);
        }
        else
        {
            BoundedSends.SendBlocking(this, message, cancellationToken);
        }
    }

    /// <summary>
    /// Puts a message into the mailbox if there is room, without ever waiting: always, for an unbounded mailbox.
    /// Any thread.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <returns>True if the message is in; false if the bounded mailbox was full, and the message was not sent.</returns>
    public bool TrySend(T message)
    {
        if (Room is null)
        {
            Send(message);
            return true;
        }

        return TryAdd(message);
    }

    /// <summary>
    /// Sends a message, waiting asynchronously while a bounded mailbox is full. Completes at once when there is room
    /// (always, for an unbounded mailbox), without allocating.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room; the message is then not sent.</param>
    /// <returns>A task that completes when the message is in.</returns>
    public ValueTask SendAsync(T message, CancellationToken cancellationToken = default) => BoundedSends.SendAsync(this, message, cancellationToken);

    /// <summary>
    /// Gets the event a green thread yields to send into a bounded mailbox: the message goes in at once if there is
    /// room, and otherwise when the receiver has made room, the thread parked until then. Into an unbounded mailbox
    /// it sends at once, so code written with <see cref="Put"/> works with either.
    /// </summary>
    /// <remarks>
    /// Yield the event right away: the message may already be in when this returns (it is when there was room), and
    /// otherwise goes in only while the event is yielded. A put that finds room allocates nothing; one that must
    /// wait allocates its event.
    /// </remarks>
    /// <param name="message">The message.</param>
    /// <returns>The event to yield.</returns>
    /// <exception cref="InvalidOperationException">The caller is not a green thread.</exception>
    public Event Put(T message) => BoundedSends.Put(this, message);

    /// <summary>
    /// Sends into an unbounded mailbox for a sender that goes on running: a receiver it wakes is queued where an idle
    /// worker can take it, not in this worker's run-next slot (see <see cref="Scheduler.ReadyAlongside"/>). For the
    /// pull protocol, whose both sides send and carry on.
    /// </summary>
    internal void SendAlongside(T message) => Append(message, Volatile.Read(ref _tail), alongside: true);

    /// <summary>Appends to a bounded mailbox if it has room, waking the receiver if it was parked. Any thread.</summary>
    bool IBoundedTarget<T>.TryAdd(T message) => TryAdd(message);

    /// <summary>Appends to a bounded mailbox if it has room, waking the receiver if it was parked. Any thread.</summary>
    private bool TryAdd(T message)
    {
        var context = ThreadContext.Current;
        context.Worker?.CountSend();
        switch (_tail!.TryAppend(message, ref _tail))
        {
            case MailboxSegment<T>.Appended:
                return true;
            case MailboxSegment<T>.AppendedToParked:
                WakeReceiver(context);
                return true;
            default:
                // Full. (Never stale: a bounded mailbox's tail never changes.)
                return false;
        }
    }

    /// <summary>Gets a value indicating whether a bounded mailbox's next slot is free; a look for a waiting sender.</summary>
    bool IBoundedTarget<T>.HasRoom() => _tail!.HasRoom();

    /// <summary>The unbounded send: append, and wake the receiver if this append took its park mark.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Append(T message, MailboxSegment<T>? tail, bool alongside)
    {
        var context = ThreadContext.Current;
        context.Worker?.CountSend();
        if (TestHooks.Enabled)
        {
            TestHooks.AfterTailRead?.Invoke(this);
        }

        var appended = tail is null ? MailboxSegment<T>.NoRoom : tail.TryAppend(message, ref _tail);
        if (appended == MailboxSegment<T>.Appended
            || (appended != MailboxSegment<T>.AppendedToParked && !SendSlow(message)))
        {
            return;
        }

        WakeReceiver(context, alongside);
    }

    /// <summary>Makes the parked receiver ready; called by the one sender whose append took the park mark.</summary>
    private void WakeReceiver(ThreadContext context, bool alongside = false)
    {
        if (TestHooks.Enabled)
        {
            TestHooks.BeforeWakeRead?.Invoke(this);
        }

        var receiver = _receiver!;
        Volatile.Write(ref _wakes, _wakes + 1);
        if (alongside)
        {
            receiver.Scheduler.ReadyAlongside(receiver);
        }
        else
        {
            receiver.Scheduler.Ready(receiver, context);
        }
    }

    /// <summary>
    /// Gets the event a green thread yields to receive the next message. After the thread resumes,
    /// <see cref="ReceiveEvent{T}.Value"/> holds the message.
    /// </summary>
    /// <returns>This mailbox's receive event; the same object every time.</returns>
    public ReceiveEvent<T> Recv() => _receive;

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"Mailbox<{typeof(T).Name}>" : $"Mailbox<{typeof(T).Name}> '{Name}'";

    /// <summary>Makes <paramref name="thread"/> the receiver, or throws if another live thread is.</summary>
    internal void Bind(GreenThread thread)
    {
        var current = Volatile.Read(ref _receiver);
        if ((current is not null && !current.IsCompleted)
            || Interlocked.CompareExchange(ref _receiver, thread, current) != current)
        {
            throw new InvalidOperationException(
                $"{thread} cannot receive from {this}: {Volatile.Read(ref _receiver)} is its receiver, and a mailbox has one receiving green thread at a time.");
        }
    }

    /// <summary>Takes the oldest message if there is one. Receiver only.</summary>
    internal bool TryTake(out T message)
    {
        var segment = _head ?? FirstSegment();
        if (segment is not null)
        {
            while (true)
            {
                var position = _headPosition;
                var slots = segment.Slots;
                ref var slot = ref slots[position & (slots.Length - 1)];
                if (Volatile.Read(ref slot.Sequence) == position + 1)
                {
                    message = slot.Item;
                    if (RuntimeHelpers.IsReferenceOrContainsReferences<T>())
                    {
                        slot.Item = default!;
                    }

                    // Frees a slot for the sender Bound positions ahead: this one, one lap ahead, unless the segment
                    // is a bounded mailbox's with more slots than its capacity. After the read above, so it cannot
                    // overwrite the message first.
                    var bound = segment.Bound;
                    Volatile.Write(ref slots[(position + bound) & (slots.Length - 1)].Sequence, position + bound);
                    _headPosition = position + 1;
                    if (segment.Room is { } room)
                    {
                        // Store-load fence, bounded mailboxes only: the freed slot must be visible before the count
                        // of waiting senders is read, or a sender that queued just then and saw the slot still full
                        // would wait until this receiver's next take or park, which may never come.
                        Interlocked.MemoryBarrier();
                        if (room.Count != 0)
                        {
                            ReleaseRoom(room, segment);
                        }
                    }
                    else if (slots.Length >= ShrinkFrom
                        && Volatile.Read(ref slots[(position + 1) & (slots.Length - 1)].Sequence) != position + 2)
                    {
                        // Perhaps the last message of a burst: give the large segment back at once, rather than
                        // when the receiver next parks, which it may never do.
                        ShrinkIfEmpty(segment);
                    }

                    return true;
                }

                var word = Volatile.Read(ref segment.TailWord);
                if (MailboxSegment<T>.PositionOf(word) != position)
                {
                    // A sender reserved the slot and is writing it; that takes a few instructions unless its OS
                    // thread was preempted in between.
                    WaitForMessage(ref slot, position);
                    continue;
                }

                if ((word & MailboxSegment<T>.Frozen) == 0)
                {
                    break;
                }

                // Drained a frozen segment: the rest of the messages are in the next one. It is no longer the tail
                // (a growth moves the tail on before it freezes, and a shrink is this receiver's own), so no sender
                // can reserve a slot of it any more, and another mailbox may have it.
                var drained = segment;
                var next = segment.Next!;

                // The growth that linked the next segment sets the same count after its freeze; whichever comes
                // first, the receiver's side of Count needs it now.
                Volatile.Write(ref next.Base, drained.Base + position);
                _head = segment = next;
                _headPosition = 0;
                SegmentPool<T>.Return(drained);
            }
        }

        message = default!;
        return false;
    }

    /// <summary>
    /// Parks the receiver if the queue is still empty: returns true if it parked, false if a message arrived first.
    /// Receiver only, right after <see cref="TryTake"/> found nothing.
    /// </summary>
    internal bool TryPark()
    {
        // Decide from the swap's own result only: the moment it succeeds, a sender may wake this thread on another
        // worker, which then takes messages and moves _head and _headPosition; reading them again here would see
        // that and "fail" a park that succeeded, running the thread on two workers at once.
        bool parked;
        var segment = _head;
        if (segment is null)
        {
            _parks++;
            parked = Interlocked.CompareExchange(ref _tail, s_parkedEmpty, null) is null;
        }
        else
        {
            var word = Volatile.Read(ref segment.TailWord);
            if (MailboxSegment<T>.PositionOf(word) != _headPosition || (word & (MailboxSegment<T>.Frozen | MailboxSegment<T>.Parked)) != 0)
            {
                return false;
            }

            if (segment.Capacity >= ShrinkFrom && segment.Room is null)
            {
                // Empty after a burst: give the large segment back rather than keep it while parked.
                ShrinkIfEmpty(segment);
                return false;
            }

            _parks++;
            parked = Interlocked.CompareExchange(ref segment.TailWord, word | MailboxSegment<T>.Parked, word) == word;
        }

        if (!parked)
        {
            _parks--;
            return false;
        }

        if (TestHooks.Enabled)
        {
            TestHooks.AfterParkExchange?.Invoke(this);
        }

        if (segment?.Room is { } waiting && waiting.Count != 0)
        {
            // Parked on an empty mailbox, after a full fence (the swap): a sender that started waiting while a take
            // missed it is seen here at the latest. Only the queue is touched; the receiver may already run elsewhere.
            waiting.Release(int.MaxValue);
        }

        return true;
    }

    /// <summary>
    /// Clears the parked mark of a receiver that will never run again (its scheduler was disposed), so that another
    /// green thread can take the mailbox over. If a sender took the mark first, its wake-up of the ended thread is
    /// ignored.
    /// </summary>
    internal void Abandon()
    {
        var segment = _head;
        var took = false;
        if (segment is null)
        {
            took = Interlocked.CompareExchange(ref _tail, null, s_parkedEmpty) == s_parkedEmpty;
        }
        else
        {
            while (true)
            {
                var word = Volatile.Read(ref segment.TailWord);
                if ((word & MailboxSegment<T>.Parked) == 0)
                {
                    break;
                }

                if (Interlocked.CompareExchange(ref segment.TailWord, word & ~MailboxSegment<T>.Parked, word) == word)
                {
                    took = true;
                    break;
                }
            }
        }

        if (took)
        {
            Volatile.Write(ref _wakes, _wakes + 1);
        }

        // A sender that took the mark may not have read _receiver yet. Once a thread of another scheduler takes the
        // mailbox over, that sender would wake the newcomer instead of the ended thread, so wait for it here: it is a
        // few instructions from that read unless its OS thread was preempted.
        if (Volatile.Read(ref _wakes) != _parks)
        {
            if (TestHooks.Enabled)
            {
                TestHooks.AbandonWaitsForWake?.Invoke(this);
            }

            var spinner = default(SpinWait);
            while (Volatile.Read(ref _wakes) != _parks)
            {
                spinner.SpinOnce();
            }
        }
    }

    /// <summary>
    /// Wakes waiting senders once a quarter of a bounded mailbox is free, or all of it. Receiver only, right after a take.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReleaseRoom(WaiterQueue room, MailboxSegment<T> segment)
    {
        var depth = MailboxSegment<T>.PositionOf(Volatile.Read(ref segment.TailWord)) - _headPosition;
        var free = segment.Bound - depth;
        if (free >= room.ReleaseAt || depth <= 0)
        {
            room.Release((int)free);
        }
    }

    /// <summary>
    /// Waits for a sender that has reserved <paramref name="slot"/> at <paramref name="position"/> but not yet
    /// written it.
    /// </summary>
    private static void WaitForMessage(ref MailboxSegment<T>.Slot slot, long position)
    {
        var spinner = default(SpinWait);
        while (Volatile.Read(ref slot.Sequence) != position + 1)
        {
            spinner.SpinOnce();
        }
    }

    /// <summary>
    /// The send path for the first message and for a full or frozen segment. Returns true if the receiver was parked
    /// and the caller must wake it.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool SendSlow(T message)
    {
        var wake = false;
        while (true)
        {
            var tail = Volatile.Read(ref _tail);
            if (tail is null || tail == s_parkedEmpty)
            {
                // The first message: create the first segment. Only one sender's swap succeeds, and only that one
                // sets _head; the receiver waits for it if it sees the segment first.
                var created = SegmentPool<T>.Rent(FirstCapacity);
                if (Interlocked.CompareExchange(ref _tail, created, tail) != tail)
                {
                    SegmentPool<T>.Return(created);
                    continue;
                }

                Volatile.Write(ref _head, created);
                wake = tail == s_parkedEmpty;
                tail = created;
            }

            switch (tail.TryAppend(message, ref _tail))
            {
                case MailboxSegment<T>.Appended:
                    return wake;
                case MailboxSegment<T>.AppendedToParked:
                    return true;
                case MailboxSegment<T>.NoRoom:
                    wake |= Grow(tail);
                    break;
                default:
                    // Stale: the tail moved on since it was read; read it again.
                    break;
            }
        }
    }

    /// <summary>
    /// Links a larger segment behind a full one, makes it the tail and freezes the full one, unless that is no longer
    /// the tail (another sender already grew it). Returns true if the receiver was parked on the frozen segment, so
    /// the caller must wake it once its message is in.
    /// </summary>
    private bool Grow(MailboxSegment<T> full)
    {
        if (TestHooks.Enabled)
        {
            TestHooks.BeforeGrow?.Invoke(this);
        }

        // Allocating and initialising up to 65,536 slots happens outside the lock, so senders waiting for the tail to
        // change wait only for the few stores below.
        if (Volatile.Read(ref _tail) != full)
        {
            return false;
        }

        var next = SegmentPool<T>.Rent(Math.Min(full.Capacity * Growth, MaxCapacity));

        // The segment is internal, so nothing else can lock it; growth is rare enough for a lock.
        lock (full)
        {
            // Checked under the lock that every change of the tail holds: another sender may have grown it, and a
            // segment taken from the pool may already be another mailbox's tail.
            if (Volatile.Read(ref _tail) == full)
            {
                // The new tail's lock too (older segment first, so no two growths wait on each other): until its
                // Base is set below, nobody may grow or shrink it.
                lock (next)
                {
                    Volatile.Write(ref full.Next, next);
                    var fullBase = full.Base;

                    // The tail moves on before the freeze. Once the segment is frozen, the receiver may drain it and
                    // give it to the pool, which unfreezes it for its next life; were it still the tail then, a sender
                    // reading it as the tail would append to the pooled segment and its message would be lost. A
                    // sender that appends to it between these two stores is in time: the freeze fixes the position
                    // the receiver drains it to.
                    Volatile.Write(ref _tail, next);
                    var wake = full.Freeze(out var appended);
                    // Read before the freeze: once frozen, the receiver may drain the segment into the pool, which resets it.
                    Volatile.Write(ref next.Base, fullBase + appended);
                    if (TestHooks.Enabled)
                    {
                        TestHooks.AfterFreeze?.Invoke(this);
                    }

                    return wake;
                }
            }
        }

        SegmentPool<T>.Return(next);
        return false;
    }

    /// <summary>
    /// If the receiver's large tail segment is empty, links a first-size segment behind it and freezes it; once no
    /// late message is left in it, the large segment goes back to the pool. Receiver only.
    /// </summary>
    private void ShrinkIfEmpty(MailboxSegment<T> large)
    {
        var word = Volatile.Read(ref large.TailWord);
        if (MailboxSegment<T>.PositionOf(word) != _headPosition || (word & MailboxSegment<T>.Frozen) != 0)
        {
            return;
        }

        var small = SegmentPool<T>.Rent(FirstCapacity);
        lock (large)
        {
            if (Volatile.Read(ref _tail) != large)
            {
                SegmentPool<T>.Return(small);
                return;
            }

            Volatile.Write(ref large.Next, small);

            // The receiver is running, so it is not parked on the segment, and no wake-up is owed.
            large.Freeze(out var appended);
            small.Base = large.Base + appended;
            Volatile.Write(ref _tail, small);
        }

        if (MailboxSegment<T>.PositionOf(Volatile.Read(ref large.TailWord)) == _headPosition)
        {
            // No sender got in before the freeze: nothing is left to take from the large segment.
            _head = large.Next;
            _headPosition = 0;
            SegmentPool<T>.Return(large);
        }
    }

    /// <summary>Gets the first segment for a receiver that has none yet, or null if no message was ever sent.</summary>
    private MailboxSegment<T>? FirstSegment()
    {
        var tail = Volatile.Read(ref _tail);
        if (tail is null || tail == s_parkedEmpty)
        {
            return null;
        }

        // The sender that created the first segment sets _head right after publishing it in _tail.
        var spinner = default(SpinWait);
        MailboxSegment<T>? head;
        while ((head = Volatile.Read(ref _head)) is null)
        {
            spinner.SpinOnce();
        }

        return head;
    }
}
