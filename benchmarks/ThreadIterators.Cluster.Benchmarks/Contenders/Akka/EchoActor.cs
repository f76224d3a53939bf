using Akka.Actor;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// The echo on the second node: answers each <see cref="AkkaMessages.Ping"/> with a <see cref="AkkaMessages.Pong"/>
/// told to its sender. The third node's victim is one too, only ever watched.
/// </summary>
internal sealed class EchoActor : ReceiveActor
{
    /// <summary>Initializes a new instance of the <see cref="EchoActor"/> class.</summary>
    public EchoActor() => Receive<AkkaMessages.Ping>(ping => Sender.Tell(new AkkaMessages.Pong(ping.Seq)));
}
