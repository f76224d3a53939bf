using System;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Orleans;
using Orleans.Runtime;
using Orleans.Serialization;

namespace ThreadIterators.Orleans;

/// <summary>
/// The address of a named process anywhere in the cluster, which receives messages of type <typeparamref name="T"/>:
/// serializable, so a handle travels in messages and grain calls, and bound on arrival to the silo that receives it.
/// </summary>
/// <typeparam name="T">The type of message the process receives.</typeparam>
/// <remarks>
/// <para>
/// <see cref="Send"/> never blocks, from a green thread, an OS thread or a grain. Messages from one sender (one silo)
/// to one process arrive in the order sent, each at most once; see docs/distribution.md for what happens on each
/// failure. Two handles are equal when they name the same process.
/// </para>
/// <para>Get one from <see cref="ClusterProcesses.Get{T}"/> or <see cref="ClusterProcesses.SpawnAsync{T}(string, System.Func{Mailbox{T}, System.Collections.Generic.IEnumerable{Event}})"/>.</para>
/// </remarks>
[GenerateSerializer]
[SerializationCallbacks(typeof(OnDeserializedCallbacks))]
[Immutable]
[Alias("ThreadIterators.Orleans.ProcessRef`1")]
public sealed class ProcessRef<T> : IEquatable<ProcessRef<T>>, IOnDeserialized
{
    [Id(0)]
    private readonly string _name;

    [NonSerialized]
    private ProcessNode? _node;

    internal ProcessRef(string name, ProcessNode node)
    {
        _name = name;
        _node = node;
    }

    /// <summary>Gets the process's name, <c>kind/key</c>.</summary>
    public string Name => _name;

    private ProcessNode Node => _node ?? throw new InvalidOperationException(
        $"{this} was not made by, nor deserialized on, a silo or client with ThreadIterators added (AddThreadIterators): it has no cluster to send through.");

    /// <summary>
    /// Sends <paramref name="message"/> to the process. Never blocks: on the process's own silo it goes straight into
    /// the inbox (unless earlier sends from here are still on their way), otherwise into the batch of the next grain call.
    /// </summary>
    /// <param name="message">The message; its type must be one Orleans serializes.</param>
    /// <remarks>
    /// A message that cannot be delivered (no process holds the name and no kind is registered for it, or the process
    /// takes another type) is a dead letter on this silo's scheduler, <see cref="DeadLetterReason.Undeliverable"/>.
    /// </remarks>
    public void Send(T message) => Node.Send(this, message);

    /// <summary>
    /// Gets the event a green thread yields to send <paramref name="message"/> to the process with back-pressure: it
    /// completes once the message is queued with fewer than <see cref="ThreadIteratorsClusterOptions.PutWindow"/>
    /// puts from this silo to the process still on their way, parking the thread until then. A message is on its way
    /// until the process's inbox has taken it; a bounded inbox takes it only when it has room. Yield it right away.
    /// </summary>
    /// <param name="message">The message; its type must be one Orleans serializes.</param>
    /// <returns>The event to yield; not a branch of a <see cref="Choice"/>.</returns>
    /// <exception cref="InvalidOperationException">The caller is not a green thread (an OS thread or async code calls <see cref="Send"/>).</exception>
    /// <remarks>
    /// <para>
    /// Puts and sends from one silo to one process keep one order. On the process's own silo, a put into an inbox with
    /// room goes straight in, as a send does; into a full bounded inbox it waits as one from another silo does.
    /// </para>
    /// <para>
    /// So a producer that puts runs at most the put window plus the inbox's capacity ahead of the process's receives,
    /// wherever the two run; with an unbounded inbox, the window bounds only what is queued or in flight between them.
    /// A message the process cannot take (it ended, or no process holds the name) is a dead letter as a sent one is,
    /// and gives its credit back.
    /// </para>
    /// </remarks>
    public Event Put(T message) => Node.Put(this, message);

    /// <summary>
    /// Asks the process, as Erlang's <c>gen_server:call({Name, Node}, Request, Timeout)</c>: <paramref name="request"/>
    /// builds the request around the answer's handle; yield the returned event, then read its
    /// <see cref="AskEvent{T}.Value"/>.
    /// </summary>
    /// <typeparam name="TReply">The type of the answer.</typeparam>
    /// <param name="request">Builds the request message, holding the <see cref="RemoteReplyTo{T}"/> it is given.</param>
    /// <param name="timeout">How long to wait for the answer.</param>
    /// <returns>The event to yield.</returns>
    /// <remarks>
    /// The wait ends with the answer; with a <see cref="TimeoutException"/> when <paramref name="timeout"/> passes
    /// (an answer after that is a dead letter, <see cref="DeadLetterReason.LateReply"/>); with a
    /// <see cref="ProcessEndedException"/> when the process ends, its silo leaves the cluster, or the request cannot be
    /// delivered; or with a <see cref="RemoteProcessException"/> when the process fails the ask.
    /// </remarks>
    /// <exception cref="ArgumentNullException"><paramref name="request"/> is null.</exception>
    /// <exception cref="InvalidOperationException">Called outside a green thread (async code uses <see cref="AskAsync{TReply}"/>).</exception>
    public AskEvent<TReply> Ask<TReply>(Func<RemoteReplyTo<TReply>, T> request, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(request);
        return Node.Asks.Ask(this, request, timeout);
    }

    /// <summary>Asks the process from async code or an OS thread, as <see cref="Ask{TReply}"/> does from a green thread.</summary>
    /// <typeparam name="TReply">The type of the answer.</typeparam>
    /// <param name="request">Builds the request message, holding the <see cref="RemoteReplyTo{T}"/> it is given.</param>
    /// <param name="timeout">How long to wait for the answer.</param>
    /// <param name="cancellationToken">Stops the wait.</param>
    /// <returns>A task with the answer, or faulted as <see cref="Ask{TReply}"/>'s wait ends.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="request"/> is null.</exception>
    public Task<TReply> AskAsync<TReply>(Func<RemoteReplyTo<TReply>, T> request, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(request);
        return Node.Asks.AskAsync(this, request, timeout, cancellationToken);
    }

    /// <summary>
    /// Links <paramref name="thread"/> to the process, as Erlang's <c>link</c> across nodes: when the process ends
    /// abnormally (a fault, a stop, its silo leaving the cluster, or no process holding the name), the thread is
    /// stopped with the <see cref="ProcessDown"/> as the reason; when the thread ends abnormally (a fault, a stop), the
    /// process is stopped, after the messages this silo sent it before, and its monitors read why. A normal end on
    /// either side ends the link and stops nobody.
    /// </summary>
    /// <param name="thread">The thread to link, of this silo's (or client's) scheduler or any other.</param>
    /// <returns>The link; <see cref="ProcessLink.Remove"/> takes it back.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="thread"/> is null.</exception>
    /// <remarks>
    /// A link is set by a monitor: it never blocks and never starts a process. A process that holds the name only after
    /// the link was set (a later incarnation of a kind) is not linked. A remote link does not honour
    /// <see cref="GreenThreadWatching.TrapExits"/>; to hear of the process's end instead, monitor it. If the thread's
    /// silo dies, the process is stopped once the cluster declares that silo dead. In an Orleans client, neither
    /// happens: the client's death stops nothing, and its link does not hear that the process's silo left the cluster.
    /// </remarks>
    public ProcessLink Link(GreenThread thread)
    {
        ArgumentNullException.ThrowIfNull(thread);
        return ProcessLink.Create(Node, _name, thread);
    }

    /// <summary>
    /// Monitors the process, as Erlang's <c>monitor(process, {Name, Node})</c>: <paramref name="target"/> gets one
    /// <see cref="ProcessDown"/> when the process ends, when the silo it runs on leaves the cluster, or at once if no
    /// process holds the name.
    /// </summary>
    /// <param name="target">Where the <see cref="ProcessDown"/> goes: a mailbox of the watching thread, say.</param>
    /// <returns>The monitor; <see cref="ProcessMonitor.Remove"/> takes it back.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="target"/> is null.</exception>
    /// <remarks>
    /// Setting a monitor never blocks, and never starts a process. Node-down comes from Orleans' membership: once the
    /// cluster declares the silo dead (its probes have failed for the configured period), every monitor of a process on
    /// it fires <see cref="ProcessExitReason.NodeDown"/>.
    /// </remarks>
    public ProcessMonitor Monitor(IMessageTarget<ProcessDown> target)
    {
        ArgumentNullException.ThrowIfNull(target);
        return Node.Monitors.Add(_name, target);
    }

    /// <inheritdoc/>
    public bool Equals(ProcessRef<T>? other) => other is not null && string.Equals(_name, other._name, StringComparison.Ordinal);

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is ProcessRef<T> other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(_name);

    /// <inheritdoc/>
    public override string ToString() => $"process \"{_name}\"";

    void IOnDeserialized.OnDeserialized(DeserializationContext context) => _node = context.ServiceProvider.GetService<ProcessNode>();
}
