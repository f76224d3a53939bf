using System.Collections.Generic;
using System.Globalization;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>The size parameters of one workload run; each workload reads the ones it has.</summary>
/// <param name="N">Ring: forwarders. Skynet: leaves (a power of ten).</param>
/// <param name="M">Ring: messages pumped in. PingPong, CountingActor, ProducerConsumer, CacheAffinity: messages.</param>
/// <param name="Hops">ThreadRing, ParallelThreadRing: hops.</param>
/// <param name="Actors">CacheAffinity: actors.</param>
/// <param name="State">CacheAffinity: bytes of private state per actor.</param>
/// <param name="Accesses">CacheAffinity: random reads and writes of the state per message.</param>
internal sealed record RunOptions(long N, long M, long Hops, long Actors = 0, long State = 0, long Accesses = 0)
{
    /// <summary>Gets the quick runner's options for the sizes that are set (not zero), such as <c>--n 1000</c>.</summary>
    public IEnumerable<string> Arguments()
    {
        foreach (var (name, value) in new[] { ("--n", N), ("--m", M), ("--hops", Hops), ("--actors", Actors), ("--state", State), ("--accesses", Accesses) })
        {
            if (value > 0)
            {
                yield return name;
                yield return value.ToString(CultureInfo.InvariantCulture);
            }
        }
    }
}
