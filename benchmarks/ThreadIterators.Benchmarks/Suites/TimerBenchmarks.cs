using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Suites;

/// <summary>
/// The scheduler's timer queue on the system clock, alone (no scheduler, no green thread), in two groups.
/// ScheduleCancel: one timeout armed an hour out and cancelled at once, the life of almost every timeout, against
/// .NET's own ways to do that (the baseline, a <see cref="Timer"/> made and disposed, and
/// <see cref="CancellationTokenSource.CancelAfter(TimeSpan)"/>); the queue's entry is allocated once, as a sleep's is.
/// Million: a million entries scheduled into an empty queue, per entry. The memory a million pending entries keep is
/// measured in <see cref="FillMillion"/> and printed to the benchmark's log (a BenchmarkDotNet column reports what an
/// operation allocates, not what stays).
/// </summary>
[Config(typeof(SuiteConfig))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable", Justification = "BenchmarkDotNet disposes the queues through the [GlobalCleanup] and [IterationCleanup] methods.")]
public class TimerBenchmarks
{
    private const int Million = 1_000_000;

    /// <summary>How far out each timeout is: none fires while measured.</summary>
    private static readonly TimeSpan Hour = TimeSpan.FromHours(1);

    /// <summary>The baseline timer's callback, which never runs.</summary>
    private static readonly TimerCallback Nothing = _ => { };

    /// <summary>A queue with nothing else pending.</summary>
    private TimerQueue _empty = null!;

    /// <summary>A queue with a million other entries pending, due from 30 to 90 minutes out.</summary>
    private TimerQueue _crowded = null!;

    /// <summary>The one entry the schedule-and-cancel benchmarks move in and out of a queue.</summary>
    private IdleTimerEntry _entry = null!;

    /// <summary>The entries <see cref="ScheduleMillion"/> schedules, made once.</summary>
    private IdleTimerEntry[] _million = null!;

    /// <summary>The queue <see cref="ScheduleMillion"/> fills, new for each iteration.</summary>
    private TimerQueue _bulk = null!;

    /// <summary>The deadline <see cref="ScheduleCancelPresetDeadline"/> uses, read once, to show what reading the clock costs.</summary>
    private long _presetDeadline;

    [GlobalSetup(Targets = [nameof(ScheduleCancel), nameof(ScheduleCancelPresetDeadline)])]
    public void MakeEmpty()
    {
        _empty = new TimerQueue(TimeProvider.System);
        _entry = new IdleTimerEntry();
        _presetDeadline = _empty.DeadlineAfter(Hour);
    }

    /// <summary>
    /// Fills <see cref="_crowded"/> with a million entries, and prints what they keep: the managed heap after a full
    /// collection, before and after making and scheduling them.
    /// </summary>
    [GlobalSetup(Target = nameof(ScheduleCancelAmongMillion))]
    public void FillMillion()
    {
        _entry = new IdleTimerEntry();
        var before = GC.GetTotalMemory(forceFullCollection: true);
        _crowded = new TimerQueue(TimeProvider.System);
        var entries = new IdleTimerEntry[Million];
        var start = _crowded.DeadlineAfter(TimeSpan.FromMinutes(30));
        var spread = _crowded.DeadlineAfter(TimeSpan.FromMinutes(60)) - _crowded.Now;
        var random = new Random(42);
        for (var i = 0; i < Million; i++)
        {
            entries[i] = new IdleTimerEntry();
            _crowded.Schedule(entries[i], start + random.NextInt64(spread));
        }

        var after = GC.GetTotalMemory(forceFullCollection: true);
        var arrayBytes = (long)Million * IntPtr.Size;
        Console.WriteLine($"// TimerBenchmarks: {Million:N0} pending entries keep {(after - before) / (1024.0 * 1024):F1} MB " +
            $"({(after - before) / (double)Million:F1} bytes each), of which {arrayBytes / (1024.0 * 1024):F1} MB is the test's own array of them");
        GC.KeepAlive(entries);
    }

    [GlobalSetup(Target = nameof(ScheduleMillion))]
    public void MakeMillion()
    {
        _million = new IdleTimerEntry[Million];
        for (var i = 0; i < Million; i++)
        {
            _million[i] = new IdleTimerEntry();
        }
    }

    [IterationSetup(Target = nameof(ScheduleMillion))]
    public void NewBulkQueue() => _bulk = new TimerQueue(TimeProvider.System);

    [IterationCleanup(Target = nameof(ScheduleMillion))]
    public void DisposeBulkQueue() => _bulk.Dispose();

    [GlobalCleanup]
    public void Cleanup()
    {
        _empty?.Dispose();
        _crowded?.Dispose();
    }

    /// <summary>The baseline: a <see cref="Timer"/> due in an hour, made and disposed.</summary>
    [BenchmarkCategory("ScheduleCancel")]
    [Benchmark(Baseline = true)]
    public void TimerCreateDispose()
    {
        using var timer = new Timer(Nothing, null, Hour, Timeout.InfiniteTimeSpan);
    }

    /// <summary>A token source cancelled after an hour, made and disposed before then.</summary>
    [BenchmarkCategory("ScheduleCancel")]
    [Benchmark]
    public void CancelAfterDispose()
    {
        using var source = new CancellationTokenSource();
        source.CancelAfter(Hour);
    }

    /// <summary>The queue, with nothing else pending: the deadline (a clock read), a schedule and a cancel.</summary>
    [BenchmarkCategory("ScheduleCancel")]
    [Benchmark]
    public bool ScheduleCancel()
    {
        _empty.Schedule(_entry, _empty.DeadlineAfter(Hour));
        return _empty.Cancel(_entry);
    }

    /// <summary>As <see cref="ScheduleCancel"/> without the clock read: the schedule and cancel alone.</summary>
    [BenchmarkCategory("ScheduleCancel")]
    [Benchmark]
    public bool ScheduleCancelPresetDeadline()
    {
        _empty.Schedule(_entry, _presetDeadline);
        return _empty.Cancel(_entry);
    }

    /// <summary>As <see cref="ScheduleCancel"/>, among a million pending entries: the heap's sifts, ten levels deep.</summary>
    [BenchmarkCategory("ScheduleCancel")]
    [Benchmark]
    public bool ScheduleCancelAmongMillion()
    {
        _crowded.Schedule(_entry, _crowded.DeadlineAfter(Hour));
        return _crowded.Cancel(_entry);
    }

    /// <summary>A million entries scheduled into an empty queue; per entry, the array's growth included.</summary>
    [BenchmarkCategory("Million")]
    [Benchmark(OperationsPerInvoke = Million)]
    public void ScheduleMillion()
    {
        var deadline = _bulk.DeadlineAfter(Hour);
        for (var i = 0; i < Million; i++)
        {
            _bulk.Schedule(_million[i], deadline + (i * 7919L % Million));
        }
    }
}
