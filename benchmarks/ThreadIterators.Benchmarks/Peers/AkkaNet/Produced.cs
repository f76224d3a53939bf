namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// A message of ProducerConsumer: its producer and sequence number, packed into one <see cref="long"/> as the green
/// and Task versions pack them, so the message is the same 24-byte object as a boxed <see cref="long"/>.
/// </summary>
/// <param name="Tag">The producer in the top 16 bits, the sequence number below.</param>
internal sealed record Produced(long Tag)
{
    /// <summary>Gets the producer that sent the message.</summary>
    public int Producer => (int)(Tag >> 48);

    /// <summary>Gets the message's place among its producer's messages, from 0.</summary>
    public long Sequence => Tag & 0xFFFF_FFFF_FFFF;

    /// <summary>The message <paramref name="sequence"/> of <paramref name="producer"/>.</summary>
    public static Produced Of(int producer, long sequence) => new(((long)producer << 48) | sequence);
}
