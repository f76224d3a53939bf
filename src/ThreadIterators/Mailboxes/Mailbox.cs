using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// An unbounded channel into one green thread. Any thread, green or not, may <see cref="Send"/>; one green thread
/// receives by yielding <see cref="Recv"/>.
/// </summary>
/// <remarks>
/// <para>
/// <see cref="Send"/> never blocks. Messages from one sender arrive in the order that sender sent them. The first
/// green thread that yields <see cref="Recv"/> becomes the mailbox's receiver; another green thread that tries to
/// receive while the receiver is alive is faulted with an <see cref="InvalidOperationException"/>. Once the
/// receiver has exited, another green thread may take its place.
/// </para>
/// <para>
/// A send costs one interlocked compare-and-swap, which also tells the sender whether the receiver is parked and must
/// be woken. Messages sit in a ring of slots that is reused while the receiver keeps up, so steady-state messaging
/// allocates nothing; a mailbox that fills its ring gets a larger one.
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
public sealed class Mailbox<T>
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

    /// <summary>Initializes a new, empty mailbox.</summary>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    public Mailbox(string? name = null)
    {
        Name = name;
        _receive = new ReceiveEvent<T>(this);
    }

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Gets a value indicating whether the receiver is parked on an empty mailbox; for tests.</summary>
    internal bool IsReceiverParked => Volatile.Read(ref _tail) is { } tail
        && (tail == s_parkedEmpty || (Volatile.Read(ref tail.TailWord) & MailboxSegment<T>.Parked) != 0);

    /// <summary>Gets the segment senders append to, if any; for tests.</summary>
    internal object? TailSegment => Volatile.Read(ref _tail);

    /// <summary>Gets the green thread that receives from this mailbox, or null before any thread received.</summary>
    public GreenThread? Receiver => Volatile.Read(ref _receiver);

    /// <summary>
    /// Puts a message into the mailbox, waking the receiver if it is parked on <see cref="Recv"/>. Never blocks;
    /// callable from any thread.
    /// </summary>
    /// <param name="message">The message.</param>
    public void Send(T message)
    {
        var context = ThreadContext.Current;
        context.Worker?.CountSend();
        var tail = Volatile.Read(ref _tail);
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

        if (TestHooks.Enabled)
        {
            TestHooks.BeforeWakeRead?.Invoke(this);
        }

        var receiver = _receiver!;
        Volatile.Write(ref _wakes, _wakes + 1);
        receiver.Scheduler.Ready(receiver, context);
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

                    // Frees the slot for the sender one lap ahead; after the read above, so it cannot overwrite it first.
                    Volatile.Write(ref slot.Sequence, position + slots.Length);
                    _headPosition = position + 1;
                    if (slots.Length >= ShrinkFrom
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
                _head = segment = segment.Next!;
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

            if (segment.Capacity >= ShrinkFrom)
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
        }
        else if (TestHooks.Enabled)
        {
            TestHooks.AfterParkExchange?.Invoke(this);
        }

        return parked;
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
                Volatile.Write(ref full.Next, next);

                // The tail moves on before the freeze. Once the segment is frozen, the receiver may drain it and give
                // it to the pool, which unfreezes it for its next life; were it still the tail then, a sender reading
                // it as the tail would append to the pooled segment and its message would be lost. A sender that
                // appends to it between these two stores is in time: the freeze fixes the position the receiver
                // drains it to.
                Volatile.Write(ref _tail, next);
                var wake = full.Freeze();
                if (TestHooks.Enabled)
                {
                    TestHooks.AfterFreeze?.Invoke(this);
                }

                return wake;
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
            large.Freeze();
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
