using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// The messages the Akka contender's actors exchange. Plain records, as an Akka.NET user writes them: between the
/// nodes Akka.Remote serializes them with the serializer bound to objects (Hyperion here, or Akka.NET 1.5's default,
/// Newtonsoft.Json: <see cref="AkkaNode.RemoteConfig"/>); where the reply goes is the envelope's sender, as usual in
/// Akka, not a field.
/// </summary>
internal static class AkkaMessages
{
    /// <summary>A ping to the echo actor, which answers the sender with a <see cref="Pong"/> of the same number.</summary>
    internal sealed record Ping(long Seq);

    /// <summary>The echo actor's answer to a <see cref="Ping"/>.</summary>
    internal sealed record Pong(long Seq);

    /// <summary>
    /// A message of the one-way stream; the sink answers the sender with a <see cref="StreamAck"/> when
    /// <see cref="AckRequested"/> is set.
    /// </summary>
    internal sealed record StreamItem(long Seq, bool AckRequested);

    /// <summary>
    /// The sink's acknowledgement: how many messages of the current stream it has seen in order, and whether every one
    /// so far was exactly the next expected (false after a loss, a repeat or a reordering).
    /// </summary>
    internal sealed record StreamAck(long InOrder, bool Ok);

    /// <summary>The ring's token; <see cref="Lap"/> counts the laps the ring's head has seen it complete.</summary>
    internal sealed record RingToken(int Lap);

    /// <summary>Tells a ring member where to forward the token; it answers with <see cref="NextSet"/>.</summary>
    internal sealed record SetNext(IActorRef Next);

    /// <summary>A ring member's answer to <see cref="SetNext"/>: it is in place.</summary>
    internal sealed record NextSet;

    /// <summary>Tells the ring's head, on the first node, to send the token on its first lap.</summary>
    internal sealed record StartRing;
}
