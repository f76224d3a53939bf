using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using System.Threading.Channels;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Channels read from a green thread, in two groups with an async baseline each; per-operation figures are per item.
/// Ready: 1,000,000 items already in the channel, read by a <see cref="ChannelReadEvent{T}"/> or by an async method's
/// <c>await ReadAsync()</c>. PingPong: 200,000 messages bounced over two channels by two green threads with read events,
/// against two async methods (<see cref="Workloads.PingPong.Tasks"/>), and, for scale, the mailbox PingPong.
/// ToAsync and RoundTrip: async code consuming a green producer's output (<see cref="AsyncConsumer"/>), through the
/// producer's mailbox against a channel.
/// </summary>
/// <remarks>
/// Not a <see cref="WorkerSuite"/>: its eight configurations would take most of an hour on a shared 2-core machine.
/// One and two workers under work stealing, the default policy; the async baselines ignore both.
/// </remarks>
[Config(typeof(SuiteConfig))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class ChannelBenchmarks
{
    private const int ReadyItems = 1_000_000;

    private const int Messages = 200_000;

    private const int StreamMessages = 1_000_000;

    private const int RoundTrips = 20_000;

    /// <summary>The channel the Ready group reads, filled before each iteration.</summary>
    private Channel<int> _prefilled = null!;

    /// <summary>Gets or sets the OS threads the green threads run on.</summary>
    [Params(1, 2)]
    public int Workers { get; set; }

    /// <summary>Gets or sets where the scheduler runs ready threads.</summary>
    [Params(SchedulingPolicy.WorkStealing)]
    public SchedulingPolicy Policy { get; set; }

    /// <summary>Gets the scheduler of the green-thread runs.</summary>
    protected Scheduler Scheduler { get; private set; } = null!;

    [GlobalSetup]
    public void Setup() => Scheduler = new Scheduler(new SchedulerOptions { WorkerCount = Workers, Policy = Policy });

    [GlobalCleanup]
    public void Cleanup() => Scheduler.Dispose();

    /// <summary>Fills the channel the Ready group reads, outside the measured time.</summary>
    [IterationSetup(Targets = [nameof(AwaitReady), nameof(ReadEventReady)])]
    public void FillChannel() => _prefilled = ChannelRead.Prefilled(ReadyItems);

    /// <summary>The Ready baseline: <c>await reader.ReadAsync()</c> on items already there.</summary>
    [BenchmarkCategory("Ready")]
    [Benchmark(Baseline = true, OperationsPerInvoke = ReadyItems)]
    public long AwaitReady() => Verify.Result("ChannelRead.AwaitReady", ChannelRead.AwaitReady(_prefilled), ReadyItems);

    /// <summary>A green thread's read event on items already there: no park.</summary>
    [BenchmarkCategory("Ready")]
    [Benchmark(OperationsPerInvoke = ReadyItems)]
    public long ReadEventReady() => Verify.Result("ChannelRead.GreenThreadReady", ChannelRead.GreenThreadReady(Scheduler, _prefilled), ReadyItems);

    /// <summary>The PingPong baseline: two async methods, <c>await ReadAsync()</c> and <c>TryWrite</c>.</summary>
    [BenchmarkCategory("PingPong")]
    [Benchmark(Baseline = true, OperationsPerInvoke = Messages)]
    public long AwaitPingPong() => Verify.Result("PingPong.Tasks", Workloads.PingPong.Tasks(Messages), Workloads.PingPong.Expected(Messages));

    /// <summary>Two green threads, each reading its channel with a read event.</summary>
    [BenchmarkCategory("PingPong")]
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ReadEventPingPong() => Verify.Result("ChannelRead.GreenThreadPingPong", ChannelRead.GreenThreadPingPong(Scheduler, Messages, synchronousContinuations: false), Workloads.PingPong.Expected(Messages));

    /// <summary>As <see cref="ReadEventPingPong"/>, on channels that run continuations on the writing worker, not the thread pool.</summary>
    [BenchmarkCategory("PingPong")]
    [Benchmark(OperationsPerInvoke = Messages)]
    public long ReadEventPingPongSynchronous() => Verify.Result("ChannelRead.GreenThreadPingPong", ChannelRead.GreenThreadPingPong(Scheduler, Messages, synchronousContinuations: true), Workloads.PingPong.Expected(Messages));

    /// <summary>The ToAsync baseline: a green producer writes a channel, async code reads it (<see cref="AsyncConsumer"/>).</summary>
    [BenchmarkCategory("ToAsync")]
    [Benchmark(Baseline = true, OperationsPerInvoke = StreamMessages)]
    public long ChannelStream() => Verify.Result("AsyncConsumer.ChannelStream", AsyncConsumer.ChannelStream(Scheduler, StreamMessages), AsyncConsumer.StreamExpected(StreamMessages));

    /// <summary>A green producer sends to its mailbox, async code reads it through <see cref="Mailbox{T}.AsChannelReader"/>.</summary>
    [BenchmarkCategory("ToAsync")]
    [Benchmark(OperationsPerInvoke = StreamMessages)]
    public long MailboxStream() => Verify.Result("AsyncConsumer.MailboxStream", AsyncConsumer.MailboxStream(Scheduler, StreamMessages), AsyncConsumer.StreamExpected(StreamMessages));

    /// <summary>The RoundTrip baseline: each message over a channel to async code, which replies to the green thread's mailbox.</summary>
    [BenchmarkCategory("RoundTrip")]
    [Benchmark(Baseline = true, OperationsPerInvoke = RoundTrips)]
    public long ChannelRoundTrip() => Verify.Result("AsyncConsumer.ChannelRoundTrip", AsyncConsumer.ChannelRoundTrip(Scheduler, RoundTrips), RoundTrips);

    /// <summary>Each message through the green thread's outbox mailbox, read by async code through <see cref="Mailbox{T}.AsChannelReader"/>.</summary>
    [BenchmarkCategory("RoundTrip")]
    [Benchmark(OperationsPerInvoke = RoundTrips)]
    public long MailboxRoundTrip() => Verify.Result("AsyncConsumer.MailboxRoundTrip", AsyncConsumer.MailboxRoundTrip(Scheduler, RoundTrips), RoundTrips);

    /// <summary>For scale: two green threads and two mailboxes.</summary>
    [BenchmarkCategory("PingPong")]
    [Benchmark(OperationsPerInvoke = Messages)]
    public long MailboxPingPong() => Verify.Result("PingPong", Workloads.PingPong.GreenThreads(Scheduler, Messages), Workloads.PingPong.Expected(Messages));
}
