using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// Asks the counter for its total. It names where to answer, rather than going through Proto.Actor's request
/// (a message envelope carrying the sender) or an ask (a future process): one plain message each way.
/// </summary>
/// <param name="ReplyTo">The actor that gets the <see cref="Total"/>.</param>
internal sealed record GetCount(PID ReplyTo);
