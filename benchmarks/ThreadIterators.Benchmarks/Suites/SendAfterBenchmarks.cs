using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using BenchmarkDotNet.Attributes;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// Public timers on the system clock: one <see cref="Scheduler.SendAfter{T}(IMessageTarget{T}, T, TimeSpan)"/> an
/// hour out, cancelled at once (the life of almost every timeout), against .NET's own one-shot timers made and
/// disposed: the baseline, a <see cref="Timer"/>, and <see cref="CancellationTokenSource.CancelAfter(TimeSpan)"/>. The
/// same with a million other sends pending, and a periodic send started and cancelled. The memory a million pending
/// sends keep is measured in <see cref="StartMillion"/> and printed to the benchmark's log (a BenchmarkDotNet column
/// reports what an operation allocates, not what stays).
/// </summary>
/// <remarks>
/// The scheduler has one worker, which stays idle; the target is an unbounded mailbox nobody receives from, and
/// nothing is ever sent to it: every deadline is an hour out.
/// </remarks>
[Config(typeof(SuiteConfig))]
[SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable", Justification = "BenchmarkDotNet disposes the schedulers through the [GlobalCleanup] method.")]
public class SendAfterBenchmarks
{
    private const int Million = 1_000_000;

    /// <summary>How far out each send is: none fires while measured.</summary>
    private static readonly TimeSpan Hour = TimeSpan.FromHours(1);

    /// <summary>The baseline timer's callback, which never runs.</summary>
    private static readonly TimerCallback Nothing = _ => { };

    /// <summary>The scheduler whose timers are measured, with nothing else pending.</summary>
    private Scheduler _scheduler = null!;

    /// <summary>A scheduler with a million sends pending, due from 30 to 90 minutes out.</summary>
    private Scheduler _crowded = null!;

    /// <summary>Where the sends would go.</summary>
    private Mailbox<int> _inbox = null!;

    [GlobalSetup(Targets = [nameof(TimerCreateDispose), nameof(CancelAfterDispose), nameof(SendAfterCancel), nameof(SendEveryCancel)])]
    public void MakeScheduler()
    {
        _scheduler = new Scheduler(1);
        _inbox = new Mailbox<int>("never receives");
    }

    /// <summary>
    /// Starts a million sends on <see cref="_crowded"/>, and prints what they keep: the managed heap after a full
    /// collection, before and after starting them (the benchmark's own array of their handles made before).
    /// </summary>
    [GlobalSetup(Target = nameof(SendAfterCancelAmongMillion))]
    public void StartMillion()
    {
        _inbox = new Mailbox<int>("never receives");
        _crowded = new Scheduler(1);
        var handles = new IScheduledSend[Million];
        var random = new Random(42);
        var before = GC.GetTotalMemory(forceFullCollection: true);
        for (var i = 0; i < Million; i++)
        {
            handles[i] = _crowded.SendAfter(_inbox, i, TimeSpan.FromMinutes(30) + TimeSpan.FromTicks(random.NextInt64(TimeSpan.FromMinutes(60).Ticks)));
        }

        // The array of handles was made before the first reading: what grew is the sends and the queue's heap.
        var kept = GC.GetTotalMemory(forceFullCollection: true) - before;
        Console.WriteLine($"// SendAfterBenchmarks: {Million:N0} pending SendAfter timers keep {kept / (1024.0 * 1024):F1} MB " +
            $"({kept / (double)Million:F1} bytes each), not counting the benchmark's own array of their handles");
        GC.KeepAlive(handles);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _scheduler?.Dispose();
        _crowded?.Dispose();
    }

    /// <summary>The baseline: a <see cref="Timer"/> due in an hour, made and disposed.</summary>
    [Benchmark(Baseline = true)]
    public void TimerCreateDispose()
    {
        using var timer = new Timer(Nothing, null, Hour, Timeout.InfiniteTimeSpan);
    }

    /// <summary>A token source cancelled after an hour, made and disposed before then.</summary>
    [Benchmark]
    public void CancelAfterDispose()
    {
        using var source = new CancellationTokenSource();
        source.CancelAfter(Hour);
    }

    /// <summary>A send an hour out, started and cancelled: the handle made, a clock read, a schedule, a cancel.</summary>
    [Benchmark]
    public bool SendAfterCancel() => _scheduler.SendAfter(_inbox, 1, Hour).Cancel();

    /// <summary>As <see cref="SendAfterCancel"/>, among a million pending sends: the heap's sifts, ten levels deep.</summary>
    [Benchmark]
    public bool SendAfterCancelAmongMillion() => _crowded.SendAfter(_inbox, 1, Hour).Cancel();

    /// <summary>A periodic send, first tick an hour out, started and cancelled.</summary>
    [Benchmark]
    public bool SendEveryCancel() => _scheduler.SendEvery(_inbox, 1, Hour, Hour).Cancel();
}
