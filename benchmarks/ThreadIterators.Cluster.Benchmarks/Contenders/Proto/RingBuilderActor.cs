using System.Collections.Generic;
using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// On the second node: spawns the odd members of a ring on a <see cref="RingBuild"/> (each knowing its next, an even
/// member on the first node or the first member), and stops them on a <see cref="RingTeardown"/>. Members have names
/// both nodes can work out (<see cref="RingMemberActor.Name"/>), so that one round trip sets a whole ring up.
/// </summary>
internal sealed class RingBuilderActor : IActor
{
    private readonly Dictionary<string, List<PID>> _rings = [];

    /// <inheritdoc />
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case RingBuild build:
                var members = new List<PID>();
                for (var i = 1; i < build.Size; i += 2)
                {
                    // An odd member's next is even (or the first): always on the first node.
                    var next = new PID(build.FirstAddress, RingMemberActor.Name(build.Run, (i + 1) % build.Size));
                    members.Add(context.System.Root.SpawnNamed(Props.FromProducer(() => new RingMemberActor(next, null)), RingMemberActor.Name(build.Run, i)));
                }

                _rings[build.Run] = members;
                context.Respond(new RingBuilt());
                break;
            case RingTeardown teardown:
                if (_rings.Remove(teardown.Run, out var stopping))
                {
                    foreach (var member in stopping)
                    {
                        context.Stop(member);
                    }
                }

                context.Respond(new RingBuilt());
                break;
        }

        return Task.CompletedTask;
    }
}
