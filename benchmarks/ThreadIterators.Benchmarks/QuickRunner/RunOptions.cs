namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>The size parameters of one workload run; each workload reads the ones it has.</summary>
/// <param name="N">Ring: forwarders. Skynet: leaves (a power of ten).</param>
/// <param name="M">Ring: messages pumped in. PingPong, CountingActor, ProducerConsumer: messages.</param>
/// <param name="Hops">ThreadRing, ParallelThreadRing: hops.</param>
internal sealed record RunOptions(long N, long M, long Hops);
