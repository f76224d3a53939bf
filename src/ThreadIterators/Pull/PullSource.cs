using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

// Consumer pull. The source has a request mailbox that its one producer receives from; each Puller owns one buffer of
// its batch size (two with prefetch) and a reply mailbox that its consumer receives from. A request is a buffer:
//   1. The consumer yields Next() (NextBatchEvent): it sends the buffer of the batch just read (the first time, every
//      buffer) to the producer as a request, then receives a batch from its reply mailbox.
//   2. The producer yields Offer(item) (OfferEvent): with no request being filled, it receives the next one from the
//      request mailbox (parking if there is none), then writes the item into the buffer and, once the buffer is full,
//      sends it back.
//   3. The producer yields Complete() (CompleteEvent): it sends the partly filled batch, then answers each connected
//      puller's next request with the end (dropping a prefetching puller's second request), parking on the request
//      mailbox between them, and completes once every connected puller has been told.
// Both sides send with SendAlongside (they go on running), so a batch costs two mailbox sends and no allocation, and an
// item costs the producer an event that completes without parking. With prefetch the second buffer is at the producer
// while the consumer reads the first, so the next batch is usually there when it asks. The events park through the
// mailboxes' receive events, so the park/wake protocol is the mailbox's (the header of Mailbox.Receiving.cs). Connect
// counts the puller in (an interlocked increment) before it reads the completing flag, and Complete sets the flag (an
// interlocked exchange) before the pullers are counted: one of the two sees the other.

/// <summary>
/// Consumer pull: consumers ask for work in batches, and one producer hands items out only as they are asked for,
/// so no mailbox ever holds more than the batches asked for. The producer yields <see cref="Offer"/> for each item
/// and <see cref="Complete"/> at the end; each consumer connects a <see cref="Puller{T}"/> and yields
/// <see cref="Puller{T}.Next"/> for each batch.
/// </summary>
/// <remarks>
/// <para>
/// A request carries the consumer's own buffer of <c>batchSize</c> items; the producer fills it and sends it back,
/// so pulling allocates nothing per batch, and each item costs the producer one event that completes without
/// parking. An offer with no request outstanding parks the producer until a consumer asks. A batch goes to its
/// consumer when full, or, partly filled, when the producer completes.
/// </para>
/// <para>
/// One green thread produces (it receives the requests); any number consume. A puller made with prefetch keeps a
/// second request at the producer while its consumer works through a batch, so the next batch is usually waiting.
/// </para>
/// <example>
/// <code>
/// var source = new PullSource&lt;Page&gt;("pages");
/// var pullers = Enumerable.Range(0, 4).Select(_ => source.Connect(batchSize: 10, prefetch: true)).ToList();
///
/// static IEnumerable&lt;Event&gt; Produce(PullSource&lt;Page&gt; source, IEnumerable&lt;Page&gt; pages)
/// {
///     foreach (var page in pages)
///         yield return source.Offer(page);   // parks until some consumer has asked for work
///     yield return source.Complete();        // the last partial batch, then the end to every consumer
/// }
///
/// static IEnumerable&lt;Event&gt; Consume(Puller&lt;Page&gt; puller)
/// {
///     while (true)
///     {
///         yield return puller.Next();
///         if (puller.IsCompleted) yield break;
///         foreach (var page in puller.Batch) Count(page);
///     }
/// }
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="T">The item type.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class PullSource<T>
{
    private readonly OfferEvent<T> _offer;

    private readonly CompleteEvent<T> _complete;

    /// <summary>Pullers connected; each must be answered with the end before <see cref="Complete"/> completes.</summary>
    private int _connected;

    /// <summary>Set (1) once the producer has called <see cref="Complete"/>; no puller may connect after.</summary>
    private int _completing;

    /// <summary>Initializes a source with no consumers yet.</summary>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    public PullSource(string? name = null)
    {
        Name = name;
        // Outlives its receiver: a producer that ends leaves the requests to the next one.
        Requests = new Mailbox<PullRequest<T>>(name is null ? "pull requests" : $"pull requests of '{name}'") { OutlivesReceiver = true };
        _offer = new OfferEvent<T>(this);
        _complete = new CompleteEvent<T>(this);
    }

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Gets the requests of the consumers; the producer receives them.</summary>
    internal Mailbox<PullRequest<T>> Requests { get; }

    /// <summary>Gets the number of connected pullers.</summary>
    internal int Connected => Volatile.Read(ref _connected);

    /// <summary>Gets or sets the request being filled, if any. Producer only.</summary>
    internal PullRequest<T>? Current { get; set; }

    /// <summary>
    /// Connects a consumer that asks for <paramref name="batchSize"/> items at a time. Any thread, before the producer
    /// completes.
    /// </summary>
    /// <param name="batchSize">Items per batch; at least 1.</param>
    /// <param name="prefetch">Whether to keep the next batch's request at the producer while the consumer works on a batch.</param>
    /// <returns>The consumer's puller; one green thread uses it.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="batchSize"/> is below 1.</exception>
    /// <exception cref="InvalidOperationException">The producer has completed.</exception>
    public Puller<T> Connect(int batchSize, bool prefetch = false)
    {
        if (batchSize < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(batchSize), batchSize, $"Connect() to {this} needs batches of at least 1 item.");
        }

        // Counted in (a full fence) before the look at the flag; Complete sets the flag (a full fence) before it
        // counts the pullers to tell: one of the two sees the other.
        Interlocked.Increment(ref _connected);
        if (Volatile.Read(ref _completing) != 0)
        {
            Interlocked.Decrement(ref _connected);
            throw new InvalidOperationException($"{this} has completed; a consumer can no longer connect.");
        }

        return new Puller<T>(this, batchSize, prefetch);
    }

    /// <summary>
    /// Gets the event the producer yields to hand out one item: it goes into the batch of the oldest request, and the
    /// producer parks first if no request is outstanding.
    /// </summary>
    /// <param name="item">The item.</param>
    /// <returns>This source's offer event; the same object every time.</returns>
    /// <exception cref="InvalidOperationException">The producer has completed.</exception>
    public Event Offer(T item)
    {
        if (Volatile.Read(ref _completing) != 0)
        {
            throw new InvalidOperationException($"Offer() on {this} after Complete(): the consumers have been told there is nothing more.");
        }

        _offer.Item = item;
        return _offer;
    }

    /// <summary>
    /// Gets the event the producer yields when it has nothing more: the partly filled batch goes to its consumer,
    /// and every connected puller's next request is answered with the end. Completes once every puller has been told,
    /// so every connected puller must keep asking (<see cref="Puller{T}.Next"/>) until it is completed; a consumer that
    /// stops early leaves the producer waiting.
    /// </summary>
    /// <returns>This source's completion event.</returns>
    public Event Complete()
    {
        Interlocked.Exchange(ref _completing, 1);
        return _complete;
    }

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"PullSource<{TypeNames.Of<T>()}>" : $"PullSource<{TypeNames.Of<T>()}> '{Name}'";
}
