namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// A message carrying one number: a ring's message or token, a ping-pong ball, a cache-affinity message's hops left.
/// </summary>
/// <remarks>
/// <c>Tell</c> takes an <see cref="object"/>, so a number has to travel as a heap object whichever way it is written:
/// a boxed <see cref="long"/> and this record cost the same 24 bytes. A record says what the message is; an
/// immutable one may be forwarded as it is (the ring's forwarders do) and shared, as the stop marker is.
/// </remarks>
/// <param name="Value">The number.</param>
internal sealed record Token(long Value)
{
    /// <summary>Gets the stop marker, -1 in every workload; one instance serves every run, as nothing ever changes it.</summary>
    public static Token Stop { get; } = new(-1);
}
