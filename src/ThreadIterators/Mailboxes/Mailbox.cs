using System;
using System.Diagnostics;
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
/// A send costs one interlocked exchange, which also tells the sender whether the receiver is parked and must be
/// woken; message nodes are recycled, so steady-state messaging allocates nothing.
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
    /// <summary>Marks <see cref="_head"/> while the receiver is parked on an empty queue. Never linked into a queue.</summary>
    private static readonly MessageNode<T> s_parked = new();

    /// <summary>
    /// The newest message (senders exchange themselves in), or <see cref="s_parked"/>, or null before the first
    /// message. Any thread.
    /// </summary>
    private MessageNode<T>? _head;

    /// <summary>The last message the receiver took, whose <see cref="MessageNode{T}.Next"/> is the oldest waiting one. Receiver only, or a sender that found the receiver parked.</summary>
    private MessageNode<T>? _stub;

    /// <summary>The first message ever sent, handed over while there is no <see cref="_stub"/> yet.</summary>
    private MessageNode<T>? _first;

    /// <summary>The green thread that receives; set when it first yields <see cref="Recv"/>.</summary>
    private GreenThread? _receiver;

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
    internal bool IsReceiverParked => Volatile.Read(ref _head) == s_parked;

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
        var node = NodePool<T>.Rent(context);
        node.Value = message;
        var previous = Interlocked.Exchange(ref _head, node);
        if (previous is not null && previous != s_parked)
        {
            Volatile.Write(ref previous.Next, node);
            return;
        }

        // The queue was empty. The receiver only touches _stub and _first while it runs, and it cannot run until
        // it sees this node: it is parked (s_parked), or it will spin for the link (null).
        var stub = _stub;
        if (stub is null)
        {
            Volatile.Write(ref _first, node);
        }
        else
        {
            Volatile.Write(ref stub.Next, node);
        }

        if (previous == s_parked)
        {
            var receiver = _receiver!;
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

    /// <summary>Takes the oldest message if there is one. Receiver only, on the worker that owns <paramref name="nodes"/>.</summary>
    internal bool TryTake(ThreadContext nodes, out T message)
    {
        var stub = _stub;
        MessageNode<T>? next;
        if (stub is null)
        {
            // No message was ever taken: the first one arrives through _first.
            if (Volatile.Read(ref _head) is null)
            {
                message = default!;
                return false;
            }

            next = Volatile.Read(ref _first) ?? WaitForLink(ref _first);
            _first = null;
        }
        else
        {
            next = Volatile.Read(ref stub.Next);
            if (next is null)
            {
                if (Volatile.Read(ref _head) == stub)
                {
                    message = default!;
                    return false;
                }

                next = WaitForLink(ref stub.Next);
            }

            NodePool<T>.Return(stub, nodes);
        }

        _stub = next;
        message = next.Value;
        next.Value = default!;
        return true;
    }

    /// <summary>
    /// Parks the receiver if the queue is empty: returns true if it parked, false if a message arrived first.
    /// Receiver only.
    /// </summary>
    internal bool TryPark()
    {
        // Read the stub once: the moment the exchange succeeds, a sender may wake this thread on another worker,
        // which takes a message and moves _stub; reading it again here would see that and "fail" a park that
        // succeeded, running the thread on two workers at once.
        var stub = _stub;
        var previous = Interlocked.CompareExchange(ref _head, s_parked, stub);
        if (TestHooks.Enabled && previous == stub)
        {
            TestHooks.AfterParkExchange?.Invoke(this);
        }

        return previous == stub;
    }

    /// <summary>
    /// Clears the parked mark of a receiver that will never run again (its scheduler was disposed), so that another
    /// green thread can take the mailbox over. If a sender took the mark first, it links its message as usual and
    /// its wake-up of the ended thread is ignored.
    /// </summary>
    internal void Abandon() => Interlocked.CompareExchange(ref _head, _stub, s_parked);

    /// <summary>
    /// Waits for a sender that has exchanged itself into <see cref="_head"/> but not yet linked its node; that
    /// window is a few instructions long unless the sender's OS thread was preempted inside it.
    /// </summary>
    private static MessageNode<T> WaitForLink(ref MessageNode<T>? link)
    {
        var spinner = default(SpinWait);
        MessageNode<T>? node;
        while ((node = Volatile.Read(ref link)) is null)
        {
            spinner.SpinOnce();
        }

        return node;
    }
}
