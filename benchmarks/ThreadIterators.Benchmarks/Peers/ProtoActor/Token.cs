namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A ring token: the hops it still has to make. Messages are objects in Proto.Actor and a token changes at every hop,
/// so each hop allocates one (24 bytes, as boxing the green threads' <c>long</c> would).
/// </summary>
/// <param name="Remaining">Hops still to make.</param>
internal sealed record Token(long Remaining);
