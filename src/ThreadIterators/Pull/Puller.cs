using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ThreadIterators;

/// <summary>
/// One consumer's connection to a <see cref="PullSource{T}"/>: it yields <see cref="Next"/> to ask for a batch and
/// wait for it, then reads <see cref="Batch"/>. Made by <see cref="PullSource{T}.Connect"/>; one green thread uses it.
/// </summary>
/// <remarks>One green thread only: the one that connected it.</remarks>
/// <typeparam name="T">The item type.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class Puller<T>
{
    private readonly PullSource<T> _source;

    private readonly NextBatchEvent<T> _next;

    /// <summary>Buffers not yet sent as requests: both at first (one without prefetch), then the batch just read.</summary>
    private PullRequest<T>? _idle;

    private PullRequest<T>? _spare;

    /// <summary>The batch the consumer is reading; its buffer becomes the next request.</summary>
    private PullRequest<T>? _reading;

    /// <summary>Gets the source this puller pulls from.</summary>
    internal PullSource<T> Source => _source;

    internal Puller(PullSource<T> source, int batchSize, bool prefetch)
    {
        _source = source;
        BatchSize = batchSize;
        Prefetch = prefetch;
        // Outlives its receiver: a consumer that ends leaves its puller, and the batches coming to it, to the next one.
        Replies = new Mailbox<PullRequest<T>>($"batches from {source}") { OutlivesReceiver = true };
        _idle = new PullRequest<T>(this, batchSize);
        _spare = prefetch ? new PullRequest<T>(this, batchSize) : null;
        _next = new NextBatchEvent<T>(this);
    }

    /// <summary>Gets the most items a batch holds.</summary>
    public int BatchSize { get; }

    /// <summary>Gets a value indicating whether a second request waits at the producer while the consumer reads a batch.</summary>
    public bool Prefetch { get; }

    /// <summary>Gets the batch the latest <see cref="Next"/> received: up to <see cref="BatchSize"/> items, empty at the end. Valid until the next <see cref="Next"/>.</summary>
    public ArraySegment<T> Batch { get; private set; } = ArraySegment<T>.Empty;

    /// <summary>Gets a value indicating whether the producer has completed and every item has been received.</summary>
    public bool IsCompleted { get; private set; }

    /// <summary>Gets the mailbox the producer sends batches to; the consumer receives them.</summary>
    internal Mailbox<PullRequest<T>> Replies { get; }

    /// <summary>Gets or sets a value indicating whether the producer has answered this puller with the end. Producer only.</summary>
    internal bool Told { get; set; }

    /// <summary>
    /// Gets the event the consumer yields for its next batch: it hands the buffer of the batch just read back to the
    /// producer as a request, and parks until a batch arrives.
    /// </summary>
    /// <returns>This puller's event; the same object every time.</returns>
    public Event Next() => _next;

    /// <inheritdoc/>
    public override string ToString() => $"Puller<{TypeNames.Of<T>()}> of {_source} (batches of {BatchSize}{(Prefetch ? ", prefetching" : string.Empty)})";

    /// <summary>Sends the buffers that are free as requests, before waiting for a batch.</summary>
    internal void Ask()
    {
        if (IsCompleted)
        {
            return;
        }

        if (_reading is { } read)
        {
            _reading = null;
            Batch = ArraySegment<T>.Empty;
            if (RuntimeHelpers.IsReferenceOrContainsReferences<T>())
            {
                Array.Clear(read.Items, 0, read.Count);
            }

            read.Count = 0;
            _source.Requests.SendAlongside(read);
        }

        if (_idle is { } first)
        {
            _idle = null;
            _source.Requests.SendAlongside(first);
        }

        if (_spare is { } second)
        {
            _spare = null;
            _source.Requests.SendAlongside(second);
        }
    }

    /// <summary>Takes a batch that arrived.</summary>
    internal void Received(PullRequest<T> batch)
    {
        if (batch.End)
        {
            IsCompleted = true;
            Batch = ArraySegment<T>.Empty;
            return;
        }

        _reading = batch;
        Batch = new ArraySegment<T>(batch.Items, 0, batch.Count);
    }
}
