using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The cost of a timeout that does not expire: PingPong with 1,000,000 messages, each receive a plain <c>Recv()</c>
/// (the baseline) or <c>Recv().WithTimeout(1 s)</c>, made once per thread; and, for scale, a choice over two mailboxes.
/// Per-operation figures are per message.
/// </summary>
/// <remarks>
/// Not a <see cref="WorkerSuite"/>: the dedicated policy is left out, because its 2-worker PingPong is bound by parking
/// and unparking a worker at every hop (tens of microseconds per message), which hides the receive's cost and makes
/// the class run for many minutes.
/// </remarks>
[Config(typeof(SuiteConfig))]
public class TimeoutBenchmarks
{
    private const int Messages = 1_000_000;

    /// <summary>Gets the scheduler of the runs, one per parameter combination (a property, disposed in <see cref="Cleanup"/>).</summary>
    private Scheduler Scheduler { get; set; } = null!;

    /// <summary>Gets or sets the OS threads the green threads run on.</summary>
    [Params(1, 2)]
    public int Workers { get; set; }

    /// <summary>Gets or sets where the scheduler runs ready threads.</summary>
    [Params(SchedulingPolicy.WorkStealing, SchedulingPolicy.SoftAffinity, SchedulingPolicy.SharedQueue)]
    public SchedulingPolicy Policy { get; set; }

    [GlobalSetup]
    public void Setup() => Scheduler = new Scheduler(new SchedulerOptions { WorkerCount = Workers, Policy = Policy });

    [GlobalCleanup]
    public void Cleanup() => Scheduler.Dispose();

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
