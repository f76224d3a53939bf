using System;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// What the <c>ThreadIterators</c> meter costs the hop path: ThreadRing, PingPong and Skynet with nothing listening
/// (the baseline of each category) and with a listener collecting every instrument every 100 ms
/// (<see cref="MeterCollector"/>). The counts are kept either way; listening adds only the collections.
/// </summary>
[Config(typeof(SuiteConfig))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class MeterBenchmarks
{
    private const int Hops = 1_000_000;
    private const int Messages = 1_000_000;
    private const int Leaves = 1_000_000;
    private const int SkynetThreads = 1_111_111;

    /// <summary>Gets the scheduler; disposed by <see cref="Cleanup"/>, as BenchmarkDotNet calls no Dispose.</summary>
    private Scheduler Scheduler { get; set; } = null!;

    /// <summary>Gets the listener of the listened benchmarks; disposed by <see cref="Cleanup"/>.</summary>
    private MeterCollector? Collector { get; set; }

    /// <summary>Gets or sets the OS threads the green threads run on (default policy).</summary>
    [Params(1, 2)]
    public int Workers { get; set; }

    [GlobalSetup(Targets = [nameof(ThreadRing), nameof(PingPong), nameof(Skynet)])]
    public void Setup() => Scheduler = new Scheduler(new SchedulerOptions { WorkerCount = Workers });

    [GlobalSetup(Targets = [nameof(ThreadRingListened), nameof(PingPongListened), nameof(SkynetListened)])]
    public void SetupListened()
    {
        Setup();
        Collector = new MeterCollector(TimeSpan.FromMilliseconds(100));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        Scheduler.Dispose();
        if (Collector is { } collector)
        {
            collector.Dispose();

            // A listened run whose listener never read a count measured nothing of what its name says.
            if (collector.Collections == 0 || collector.LastSent == 0)
            {
                throw new InvalidOperationException($"The meter listener collected {collector.Collections} times and saw {collector.LastSent} messages sent.");
            }
        }
    }

    [BenchmarkCategory("ThreadRing"), Benchmark(Baseline = true, OperationsPerInvoke = Hops)]
    public long ThreadRing() => Verify.Result("ThreadRing", Workloads.ThreadRing.GreenThreads(Scheduler, Hops), Workloads.ThreadRing.Expected(Hops));

    [BenchmarkCategory("ThreadRing"), Benchmark(OperationsPerInvoke = Hops)]
    public long ThreadRingListened() => ThreadRing();

    [BenchmarkCategory("PingPong"), Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long PingPong() => Verify.Result("PingPong", Workloads.PingPong.GreenThreads(Scheduler, Messages), Workloads.PingPong.Expected(Messages));

    [BenchmarkCategory("PingPong"), Benchmark(OperationsPerInvoke = Messages)]
    public long PingPongListened() => PingPong();

    [BenchmarkCategory("Skynet"), Benchmark(Baseline = true, OperationsPerInvoke = SkynetThreads)]
    public long Skynet() => Verify.Result("Skynet", Workloads.Skynet.GreenThreads(Scheduler, Leaves), Workloads.Skynet.Expected(Leaves));

    [BenchmarkCategory("Skynet"), Benchmark(OperationsPerInvoke = SkynetThreads)]
    public long SkynetListened() => Skynet();
}
