namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// The ping-pong counter. It changes at every bounce and messages are objects, so each bounce allocates one (24 bytes,
/// as boxing the green threads' <c>long</c> would).
/// </summary>
/// <param name="Count">The counter; the message carrying 1 is the last.</param>
internal sealed record Ball(long Count);
