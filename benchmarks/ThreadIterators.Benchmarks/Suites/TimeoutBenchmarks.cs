using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The cost of a timeout that does not expire: PingPong with 1,000,000 messages, each receive a plain <c>Recv()</c>
/// (the baseline) or <c>Recv().WithTimeout(1 s)</c>, made once per thread; and, for scale, a choice over two mailboxes.
/// Per-operation figures are per message.
/// </summary>
public class TimeoutBenchmarks : WorkerSuite
{
    private const int Messages = 1_000_000;

    /// <summary>The baseline: every receive a plain receive.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long Receive() => Verify.Result("PingPong", Workloads.PingPong.GreenThreads(Scheduler, Messages), Workloads.PingPong.Expected(Messages));

    /// <summary>Every receive with a timeout of one second, which never expires.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ReceiveWithTimeout() => Verify.Result("PingPong.TimingOut", Workloads.PingPong.TimingOut(Scheduler, Messages), Workloads.PingPong.Expected(Messages));

    /// <summary>Every receive a choice over two mailboxes.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ChoiceOfTwo() => Verify.Result("PingPong.Choosing", Workloads.PingPong.Choosing(Scheduler, Messages), Workloads.PingPong.Expected(Messages));
}
