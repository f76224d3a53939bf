namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>The size parameters of one workload run; each workload reads the ones it has.</summary>
/// <param name="N">Ring: forwarders. Skynet: leaves (a power of ten).</param>
/// <param name="M">Ring: messages pumped in. PingPong, CountingActor, ProducerConsumer, CacheAffinity: messages.</param>
/// <param name="Hops">ThreadRing, ParallelThreadRing: hops.</param>
/// <param name="Actors">CacheAffinity: actors.</param>
/// <param name="State">CacheAffinity: bytes of private state per actor.</param>
/// <param name="Accesses">CacheAffinity: random reads and writes of the state per message.</param>
internal sealed record RunOptions(long N, long M, long Hops, long Actors = 0, long State = 0, long Accesses = 0);
