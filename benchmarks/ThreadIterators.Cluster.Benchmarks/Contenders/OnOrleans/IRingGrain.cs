using System.Threading.Tasks;
using Orleans;
using Orleans.Concurrency;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>The raw Orleans peer's ring: grain <c>ring/SIZE/I</c> forwards the token to <c>ring/SIZE/I+1</c>.</summary>
[Alias("ThreadIterators.Cluster.Benchmarks.IRingGrain")]
public interface IRingGrain : IGrainWithStringKey
{
    /// <summary>Activates the grain where the caller is (it prefers local placement), and returns that silo's address.</summary>
    [Alias("Place")]
    Task<string> Place();

    /// <summary>
    /// Takes the token with <paramref name="left"/> hops to go, and passes it on with one fewer, or ends the lap run
    /// when none is left. One-way: a forwarder that awaited its next would wait on the whole rest of the ring.
    /// </summary>
    [OneWay]
    [Alias("Forward")]
    Task Forward(long left);
}
