using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The cost of a choice: PingPong with 1,000,000 messages, each receive a plain <c>Recv()</c> (the baseline) or a
/// <see cref="Choice"/> between the inbox and a second mailbox that stays empty. Per-operation figures are per message.
/// </summary>
public class ChoiceBenchmarks : WorkerSuite
{
    private const int Messages = 1_000_000;

    /// <summary>The baseline: every receive a plain receive.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long Receive() => Verify.Result("PingPong", Workloads.PingPong.GreenThreads(Scheduler, Messages), Workloads.PingPong.Expected(Messages));

    /// <summary>Every receive a choice over two mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ChoiceOfTwo() => Verify.Result("PingPong.Choosing", Workloads.PingPong.Choosing(Scheduler, Messages), Workloads.PingPong.Expected(Messages));
}
