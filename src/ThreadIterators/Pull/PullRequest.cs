namespace ThreadIterators;

/// <summary>
/// A consumer's request for a batch, and the batch that answers it: the same buffer goes to the producer empty and
/// comes back filled (or marked as the end), so pulling allocates nothing per batch.
/// </summary>
/// <remarks>
/// Owned by one side at a time: the puller fills in a request and sends it; the producer fills the batch and sends it
/// back.
/// </remarks>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class PullRequest<T>(Puller<T> owner, int batchSize)
{
    /// <summary>Gets the puller that asked and receives the answer.</summary>
    internal Puller<T> Owner { get; } = owner;

    /// <summary>Gets the buffer; the producer fills it from the start.</summary>
    internal T[] Items { get; } = new T[batchSize];

    /// <summary>Items in <see cref="Items"/>. Written by the producer before it sends the batch, read by the consumer after.</summary>
    internal int Count;

    /// <summary>Whether this answer is the end: the producer has completed and will send nothing more.</summary>
    internal bool End;
}
