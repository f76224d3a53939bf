using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// A channel into one green thread, unbounded or bounded. Any thread, green or not, may send; one green thread
/// receives by yielding <see cref="Recv"/>, or takes a message without waiting with <see cref="TryRecv"/>.
/// </summary>
/// <remarks>
/// <para>
/// An unbounded mailbox (the default) never blocks a sender: <see cref="Send(T)"/> always returns at once. A bounded
/// mailbox, made with a capacity, holds at most that many messages and pushes back on its senders while full: a
/// green thread yields <see cref="Put"/> and parks until there is room, an OS thread blocks in
/// <see cref="Send(T)"/> or awaits <see cref="SendAsync"/>, and <see cref="TrySend"/> never waits.
/// Messages from one sender arrive in the order that sender sent them, and none is lost. The first
/// green thread that yields <see cref="Recv"/> (or calls <see cref="TryRecv"/>) becomes the mailbox's receiver;
/// another green thread that tries to receive while the receiver is alive is faulted with an
/// <see cref="InvalidOperationException"/> (<see cref="TryRecv"/> throws it).
/// </para>
/// <para>
/// When the receiver ends, however it ends, the messages still in the mailbox and every message sent to it later go
/// to the dead letters of the receiver's scheduler (<see cref="Scheduler.DeadLetter"/>), counted and raised one by
/// one, as an Erlang process's mailbox dies with it: an unbounded send still returns at once, and a bounded mailbox
/// is completed, so that its waiting senders are released, and later ones refused, with an exception naming it and
/// its receiver. A mailbox made with <see cref="OutlivesReceiver"/> = true instead keeps its messages for the next
/// green thread that receives from it.
/// </para>
/// <para>
/// A sender that has no more to send completes the mailbox (<see cref="Complete"/>), as a channel is closed: the
/// receiver takes every message sent before, then its next receive gets the end instead of a message
/// (<see cref="ReceiveEvent{T}.IsCompleted"/>), and later sends throw a
/// <see cref="System.Threading.Channels.ChannelClosedException"/>. A send that races the completion is either
/// refused or delivered before the end, never lost.
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
[DebuggerDisplay("{DebuggerDisplay,nq}")]
public sealed partial class Mailbox<T> : IMessageTarget<T>, IBoundedTarget<T>
{
    /// <summary>Slots of a mailbox's first segment: enough for a reply or a few children's answers. Guessed.</summary>
    private const int FirstSegmentSlots = 4;

    /// <summary>Each segment linked behind a full one has this many times its slots (guessed; <see cref="SegmentPool{T}"/> keeps one free list per power of it)...</summary>
    private const int Growth = 4;

    /// <summary>...up to this many (a megabyte of <see cref="long"/> messages), so a flood allocates in bounded steps. Guessed.</summary>
    internal const int MaxSegmentSlots = 64 * 1024;

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

    /// <summary>
    /// Who a sender that takes the park mark wakes instead of <see cref="_receiver"/>: the <see cref="ChoiceBranch"/>
    /// the receiver is parked for (set by the receiver before its mark, cleared when it withdraws), or, for good, the
    /// <see cref="MailboxChannelReader{T}"/> that async code receives through; null for a green thread's plain
    /// receive. The sender that takes the mark reads it (see <see cref="WakeReceiver"/>).
    /// </summary>
    private object? _chooser;

    /// <summary>The one receive event of this mailbox, reused for every message.</summary>
    private readonly ReceiveEvent<T> _receive;

    /// <summary>Initializes a new, empty, unbounded mailbox.</summary>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    public Mailbox(string? name = null)
    {
        Name = name;
        _receive = new ReceiveEvent<T>(this);
    }

    /// <summary>
    /// Initializes a new, empty mailbox that holds at most <paramref name="capacity"/> messages; with a capacity of 0, a
    /// rendezvous mailbox, which holds none: each send completes only once the receiver takes its message, as on Go's
    /// unbuffered channel.
    /// </summary>
    /// <param name="capacity">The most messages the mailbox holds, from 0 (a rendezvous mailbox) to 1,048,576.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <remarks>
    /// <para>
    /// The slots are allocated as messages queue, as an unbounded mailbox's are: a few at first, then rings four times
    /// larger as senders fill them, up to the capacity rounded up to a power of two. A bounded mailbox keeps its
    /// largest ring once it has one.
    /// </para>
    /// <para>
    /// A rendezvous mailbox (capacity 0) is sent to as a full bounded mailbox is, and "room" is a receiver that waits:
    /// a green thread yields <see cref="Put"/> (or a put event, which may be a <see cref="Choice"/>'s branch, or be
    /// given a timeout) and resumes after the receiver took the message; an OS thread blocks in <see cref="Send(T)"/>
    /// or awaits <see cref="SendAsync"/> until then; <see cref="TrySend"/> hands the message over only if the receiver
    /// is waiting right now (parked on <see cref="Recv"/>, alone or in a choice). The receiver's <see cref="Recv"/>
    /// (alone, in a choice, or with a timeout) and <see cref="TryRecv"/> take a waiting sender's message. A wait that
    /// loses (a choice's other branch, a timeout, a cancellation, a stop) sends or takes nothing. A rendezvous mailbox
    /// cannot be read through <see cref="AsChannelReader"/>, which would hold a message no receiver has taken.
    /// </para>
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative or above 1,048,576.</exception>
    public Mailbox(int capacity, string? name = null)
        : this(name)
    {
        if (capacity < 0 || capacity > MaxBoundedCapacity)
        {
            throw new ArgumentOutOfRangeException(
                nameof(capacity),
                capacity,
                $"A bounded mailbox holds from 1 to {MaxBoundedCapacity:N0} messages (0 makes a rendezvous mailbox, which holds none); for more, use an unbounded mailbox with a {nameof(CreditWindow)}.");
        }

        if (capacity == 0)
        {
            // Two slots, a bound of 0 and none free: the bounded append never finds room, so every send goes to the
            // hand-over (Mailbox.Rendezvous.cs). A release wakes one waiting sender, to hand over to the receiver
            // that parked.
            var rendezvous = new MailboxSegment<T>(2, bound: 0, new WaiterQueue(releaseAt: 1), capacity: 0, free: 0);
            _tail = rendezvous;
            _head = rendezvous;
            return;
        }

        // The first segment, made here so that the receiver never waits for one. Its segments grow as an unbounded
        // mailbox's do, up to the last size, but never shrink or go to the pool: each carries the mailbox's capacity
        // and its queue of waiting senders.
        var room = new WaiterQueue(releaseAt: Math.Max(1, capacity / 4));
        var slots = Math.Min(FirstSegmentSlots, LastBoundedSlots(capacity));
        var segment = new MailboxSegment<T>(slots, Math.Min(slots, capacity), room, capacity);
        _tail = segment;
        _head = segment;
    }

    /// <summary>The largest capacity of a bounded mailbox.</summary>
    internal const int MaxBoundedCapacity = 1 << 20;

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Gets the most messages the mailbox holds (0 for a rendezvous mailbox), or null if it is unbounded.</summary>
    public int? Capacity => Room is null ? null : _tail!.Capacity;

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

    /// <summary>Gets the senders waiting for room; null for an unbounded mailbox. Any thread: each of a bounded mailbox's segments has the one queue.</summary>
    private WaiterQueue? Room => Volatile.Read(ref _tail)?.Room;

    /// <summary>Gets a value indicating whether the receiver is parked on an empty mailbox; for tests.</summary>
    internal bool IsReceiverParked => Volatile.Read(ref _tail) is { } tail
        && (tail == s_parkedEmpty || (Volatile.Read(ref tail.TailWord) & MailboxSegment<T>.Parked) != 0);

    /// <inheritdoc/>
    WaiterQueue? IBoundedTarget<T>.Room => Room;

    /// <inheritdoc/>
    GreenThread? IDrained.Drainer => Receiver;

    /// <summary>
    /// Gets the green thread that receives from this mailbox, or null before any thread received. Once async code
    /// receives through <see cref="AsChannelReader"/>, it is the last green receiver (which has ended), or null.
    /// </summary>
    public GreenThread? Receiver => Volatile.Read(ref _receiver);

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
    /// <exception cref="ChannelClosedException">
    /// The mailbox was completed. A put that parked for room and finds the mailbox completed when it resumes ends its
    /// thread with this exception, which the thread's joiners see.
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
    /// Gets the event a green thread yields to receive the next message. After the thread resumes,
    /// <see cref="ReceiveEvent{T}.Value"/> holds the message; or, once the mailbox is completed and every message
    /// sent before has been taken, <see cref="ReceiveEvent{T}.IsCompleted"/> is true instead, and the receive never
    /// parks again.
    /// </summary>
    /// <returns>
    /// This mailbox's receive event; the same object every time, so calling this before every receive costs nothing.
    /// (The naming rule: <c>Recv()</c> gets a mailbox's own reusable event; a <see cref="SharedMailbox{T}"/>, which
    /// needs one event per receiver, makes them with <see cref="SharedMailbox{T}.CreateReceiveEvent"/>.)
    /// </returns>
    public ReceiveEvent<T> Recv() => _receive;

    /// <summary>
    /// Takes the next message if there is one, without ever parking: a receive for a green thread that has other
    /// work to do when the mailbox is empty. Only the mailbox's receiving green thread may call it; the first to
    /// receive, by <see cref="Recv"/> or by this, becomes the receiver.
    /// </summary>
    /// <remarks>
    /// <para>
    /// It takes what <see cref="Recv"/> would take, in the same order, and the two may be mixed freely. Taking from a
    /// bounded mailbox makes room, and releases waiting senders, as a receive does. It does not touch
    /// <see cref="ReceiveEvent{T}.Value"/>. The receiver's calls cost a take and a few field reads; only a call that
    /// binds a new receiver (or fails) looks for the caller as <see cref="GreenThread.Current"/> does.
    /// </para>
    /// <example>
    /// A receiver that parks until a message comes, then takes whatever else has arrived meanwhile, and writes
    /// them out as one batch:
    /// <code>
    /// static IEnumerable&lt;Event&gt; WriteInBatches(Mailbox&lt;string&gt; lines, TextWriter output)
    /// {
    ///     var first = lines.Recv();
    ///     var batch = new List&lt;string&gt;();
    ///     while (true)
    ///     {
    ///         yield return first;                        // Parks until a line is there.
    ///         batch.Add(first.Value);
    ///         while (lines.TryRecv(out var line))        // The lines already there, without parking.
    ///         {
    ///             batch.Add(line);
    ///         }
    ///
    ///         output.Write(string.Join(Environment.NewLine, batch));
    ///         batch.Clear();
    ///     }
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    /// <param name="message">The message taken, or the default value when there was none.</param>
    /// <returns>
    /// True if a message was taken; false if the mailbox was empty, or completed with every message taken (then
    /// <see cref="IsCompleted"/> is true, and a <see cref="Recv"/> yielded now gets the end at once).
    /// </returns>
    /// <exception cref="InvalidOperationException">
    /// The caller is not a green thread, or another green thread is the mailbox's receiver and has not ended.
    /// </exception>
    public bool TryRecv([MaybeNullWhen(false)] out T message) => TryTakeAsReceiver(out message);

    /// <summary>
    /// Gets a value indicating whether the mailbox has been completed: it takes no more messages. The receiver may
    /// still have messages sent before to take; its receive gets the end after the last of them. Any thread.
    /// </summary>
    public bool IsCompleted => Volatile.Read(ref _tail) is EndSegment<T>;

    /// <summary>
    /// Completes the mailbox: no message can be sent after this, and the receiver, once it has taken every message
    /// sent before, gets the end (<see cref="ReceiveEvent{T}.IsCompleted"/>) instead of waiting for more. Any thread,
    /// once.
    /// </summary>
    /// <remarks>
    /// <para>
    /// A receiver parked on the empty mailbox is woken, and so is one waiting in a <see cref="Choice"/>, which then
    /// chooses this mailbox's receive. Later sends are refused: <see cref="Send(T)"/> throws a
    /// <see cref="ChannelClosedException"/>, <see cref="TrySend"/> returns false, and a sender waiting for room in a
    /// bounded mailbox (an OS thread in <see cref="Send(T)"/>, a <see cref="SendAsync"/>, a green thread parked on
    /// <see cref="Put"/>) stops waiting and fails the same way. A send that races the completion on another thread
    /// either is refused or its message reaches the receiver before the end: none is lost silently.
    /// </para>
    /// <para>
    /// Completing a second time throws; <see cref="TryComplete"/> returns false instead, for code where several
    /// parties may complete. Completion costs the hop nothing: it freezes the mailbox's last segment behind a final
    /// empty one, which senders and the receiver find on the paths they take anyway when a segment is full or empty.
    /// </para>
    /// <example>
    /// <code>
    /// var lines = new Mailbox&lt;string&gt;("lines");
    /// var printer = scheduler.Spawn(Print(lines));
    /// lines.Send("one");
    /// lines.Send("two");
    /// lines.Complete();          // the printer prints both, then ends
    /// printer.Wait();
    ///
    /// static IEnumerable&lt;Event&gt; Print(Mailbox&lt;string&gt; lines)
    /// {
    ///     var line = lines.Recv();
    ///     while (true)
    ///     {
    ///         yield return line;
    ///         if (line.IsCompleted)
    ///         {
    ///             yield break;
    ///         }
    ///
    ///         Console.WriteLine(line.Value);
    ///     }
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    /// <param name="error">
    /// Why the mailbox ends early, if it does: the inner exception of the <see cref="ChannelClosedException"/> that
    /// reading <see cref="ReceiveEvent{T}.Value"/> past the end, and every refused send, throw. Null for a normal end.
    /// </param>
    /// <exception cref="ChannelClosedException">The mailbox was completed already.</exception>
    public void Complete(Exception? error = null)
    {
        if (!TryComplete(error))
        {
            throw new ChannelClosedException($"{this} was completed already; a mailbox is completed once (call TryComplete where several parties may complete it).");
        }
    }

    /// <summary>
    /// Completes the mailbox unless it was completed already, as <see cref="Complete"/> does. Any thread.
    /// </summary>
    /// <param name="error">Why the mailbox ends early, or null for a normal end; see <see cref="Complete"/>.</param>
    /// <returns>True if this call completed the mailbox; false if it was completed already (the first error stays).</returns>
    public bool TryComplete(Exception? error = null) => End(error);

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"Mailbox<{TypeNames.Of<T>()}>" : $"Mailbox<{TypeNames.Of<T>()}> '{Name}'";

    /// <summary>Gets what the debugger shows: the mailbox, its messages (of its capacity), its receiver, and whether it is completed.</summary>
    internal string DebuggerDisplay
    {
        get
        {
            var receiver = Receiver;
            var queued = Capacity is { } capacity ? $"{Count}/{capacity} queued" : $"{Count} queued";
            var who = receiver is null ? "no receiver yet" : $"receiver {receiver}{(receiver.IsCompleted ? " (ended)" : string.Empty)}";
            return $"{this}: {queued}, {who}{(IsCompleted ? ", completed" : string.Empty)}";
        }
    }
}
