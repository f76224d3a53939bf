using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// One run of PingPong: spawns the two players as its children, points them at each other, and serves the first ball
/// (the counter at M) to the player that receives first. The green serving player sends that ball itself; here the run
/// does, which is the same one message. Being their parent, it is what the peer stops to be sure they are gone.
/// </summary>
/// <param name="messages">Messages bounced in all.</param>
/// <param name="done">Completed by the player that receives the last ball.</param>
internal sealed class PingPongRun(long messages, TaskCompletionSource<long> done) : IActor
{
    public Task ReceiveAsync(IContext context)
    {
        if (context.Message is Started)
        {
            var pong = context.Spawn(Props.FromProducer(() => new PingPongPlayer((messages + 1) / 2, done)));
            var ping = context.Spawn(Props.FromProducer(() => new PingPongPlayer(messages / 2, done)));
            context.Send(pong, new Link(ping));
            context.Send(ping, new Link(pong));
            context.Send(pong, new Ball(messages));
        }

        return Task.CompletedTask;
    }
}
