using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// A Skynet node: a leaf answers its ordinal; any other node spawns ten children as its own, starts each on a tenth of
/// its leaves, sums their answers and answers the sum. Every node ends once it has answered, as the green node does.
/// </summary>
/// <remarks>
/// Children are spawned as the node's children, so the tree is a supervision tree and stopping its root stops it all;
/// a node's stop waits until its children have stopped.
/// </remarks>
internal sealed class SkynetNode : IActor
{
    /// <summary>Children per node.</summary>
    private const int Fanout = 10;

    /// <summary>The one Props every node is spawned from: it makes a node and holds no state of its own.</summary>
    public static readonly Props Props = Props.FromProducer(() => new SkynetNode());

    private long _sum;

    private int _answers;

    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case SkynetStart { Size: 1 } leaf:
                Answer(context, leaf.Ordinal);
                break;
            case SkynetStart start:
                var childSize = start.Size / Fanout;
                for (var i = 0; i < Fanout; i++)
                {
                    var child = context.Spawn(Props);
                    context.Send(child, new SkynetStart(start.Ordinal + (i * childSize), childSize));
                }

                break;
            case SkynetSum answer:
                _sum += answer.Value;
                if (++_answers == Fanout)
                {
                    Answer(context, _sum);
                }

                break;
        }

        return Task.CompletedTask;
    }

    private static void Answer(IContext context, long sum)
    {
        context.Send(context.Parent!, new SkynetSum(sum));
        context.Stop(context.Self);
    }
}
