using System.Threading.Tasks;
using Orleans;
using Orleans.Runtime;
using Orleans.GrainDirectory;
using Orleans.Placement;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>The raw Orleans peer's grain, placed on the silo that first calls it: the second node calls it first.</summary>
[PreferLocalPlacement]
[KeepAlive]
[GrainDirectory(GrainDirectoryName = BenchSilo.RawDirectory)]
internal sealed class EchoGrain(ILocalSiloDetails silo) : Grain, IEchoGrain
{
    private long _pushed;

    public Task<long> Ping(long seq) => Task.FromResult(seq);

    public Task Push(long seq)
    {
        _pushed++;
        return Task.CompletedTask;
    }

    public Task<string> Where() => Task.FromResult(silo.SiloAddress.ToString());

    public Task<long> TakeCount()
    {
        var pushed = _pushed;
        _pushed = 0;
        return Task.FromResult(pushed);
    }
}
