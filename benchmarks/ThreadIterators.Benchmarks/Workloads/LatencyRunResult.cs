namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>What one latency run observed, before any statistics.</summary>
/// <param name="HeartbeatLateness">How late each heartbeat wake-up whose sleep began in the window was, in Stopwatch ticks (actual sleep minus the period).</param>
/// <param name="CompletionLatency">How long after its timestamp each completion sent in the window ran, in Stopwatch ticks.</param>
/// <param name="Delivered">Messages the clients received from the hub during the window.</param>
/// <param name="WindowSeconds">How long the window lasted.</param>
/// <param name="CompletionsSent">Completions the OS threads sent in the whole run, warm-up included.</param>
/// <param name="CompletionsReceived">Completions the completers received in the whole run.</param>
/// <param name="CpuSeconds">Processor time the whole process used during the window, all its threads together.</param>
/// <param name="PoolThreadsMax">The most thread-pool threads seen during the window (<see cref="System.Threading.ThreadPool.ThreadCount"/>, sampled every 20 ms).</param>
internal sealed record LatencyRunResult(
    long[] HeartbeatLateness,
    long[] CompletionLatency,
    long Delivered,
    double WindowSeconds,
    long CompletionsSent,
    long CompletionsReceived,
    double CpuSeconds,
    int PoolThreadsMax);
