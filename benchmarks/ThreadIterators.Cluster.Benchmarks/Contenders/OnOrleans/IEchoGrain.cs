using System.Threading.Tasks;
using Orleans;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.OnOrleans;

/// <summary>The raw Orleans peer: a grain on the second node, called from the first.</summary>
[Alias("ThreadIterators.Cluster.Benchmarks.IEchoGrain")]
public interface IEchoGrain : IGrainWithStringKey
{
    /// <summary>Answers <paramref name="seq"/>: one round trip.</summary>
    [Alias("Ping")]
    Task<long> Ping(long seq);

    /// <summary>Takes one message of a stream, counted.</summary>
    [Alias("Push")]
    Task Push(long seq);

    /// <summary>Returns the address of the silo the grain runs on.</summary>
    [Alias("Where")]
    Task<string> Where();

    /// <summary>Returns how many messages <see cref="Push"/> took since the last call, and starts counting again.</summary>
    [Alias("TakeCount")]
    Task<long> TakeCount();
}
