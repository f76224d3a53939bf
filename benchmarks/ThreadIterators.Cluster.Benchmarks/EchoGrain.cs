using System.Threading.Tasks;
using Orleans;
using Orleans.Placement;

namespace ThreadIterators.Cluster.Benchmarks;

/// <summary>The raw Orleans peer's grain, placed on the silo that first calls it: the second node calls it first.</summary>
[PreferLocalPlacement]
[KeepAlive]
internal sealed class EchoGrain : Grain, IEchoGrain
{
    private long _pushed;

    public Task<long> Ping(long seq) => Task.FromResult(seq);

    public Task Push(long seq)
    {
        _pushed++;
        return Task.CompletedTask;
    }
}
