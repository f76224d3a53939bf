using BenchmarkDotNet.Attributes;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Request-reply between two green threads (<see cref="Asks"/>): per-operation figures are per request and its
/// reply. The baseline answers into the caller's own reused mailbox, so the ratio is what a one-shot reply target,
/// the watch on the server and the deadline add.
/// </summary>
public class AskBenchmarks : WorkerSuite
{
    private const int Count = 20_000;

    /// <summary>The baseline: replies into the caller's mailbox; no timeout, no watch.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public long ReplyMailbox() => Verify.Result("Asks.ReplyMailbox", Asks.ReplyMailbox(Scheduler, Count), Asks.Expected(Count));

    /// <summary>An ask with a 30-second timeout.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public long Ask() => Verify.Result("Asks.Ask", Asks.Ask(Scheduler, Count, timeout: true), Asks.Expected(Count));

    /// <summary>An ask with no timeout.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public long AskWithoutTimeout() => Verify.Result("Asks.AskWithoutTimeout", Asks.Ask(Scheduler, Count, timeout: false), Asks.Expected(Count));
}
