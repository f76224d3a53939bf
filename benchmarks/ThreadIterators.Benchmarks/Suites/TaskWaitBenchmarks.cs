using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Suites;

// The library's internals are visible here (for the timer benchmarks), and its own internal TaskWait, in an enclosing
// namespace, would otherwise hide the workload's.
using TaskWait = ThreadIterators.Benchmarks.Workloads.TaskWait;

/// <summary>
/// Task waits from a green thread, in two groups with a baseline each; per-operation figures are per wait.
/// Completed: a reusable <see cref="TaskEvent{T}"/> on a cached completed task, against a receive that finds a
/// message waiting. Pending: tasks one helper OS thread completes, against a plain async method awaiting the same
/// tasks completed the same way; and, for comparison, a receive woken by a send from the same helper thread.
/// </summary>
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class TaskWaitBenchmarks : WorkerSuite
{
    private const int CompletedWaits = 2_000_000;

    private const int PendingWaits = 20_000;

    /// <summary>The messages <see cref="ReceiveWaiting"/> receives, sent before each iteration.</summary>
    private Mailbox<int> _prefilled = null!;

    /// <summary>Sends the messages <see cref="ReceiveWaiting"/> receives, outside the measured time.</summary>
    [IterationSetup(Target = nameof(ReceiveWaiting))]
    public void FillMailbox() => _prefilled = TaskWait.Prefilled(CompletedWaits);

    /// <summary>
    /// Nothing to set up: an iteration setup gives <see cref="CompletedTask"/> the job of its baseline (one invocation
    /// per iteration), so the two share a group and a ratio.
    /// </summary>
    [IterationSetup(Target = nameof(CompletedTask))]
    public void SameJobAsReceiveWaiting()
    {
    }

    /// <summary>The completed-wait baseline: a receive that finds a message waiting.</summary>
    [BenchmarkCategory("Completed")]
    [Benchmark(Baseline = true, OperationsPerInvoke = CompletedWaits)]
    public long ReceiveWaiting() => Verify.Result("TaskWait.ReceiveWaiting", TaskWait.ReceiveWaiting(Scheduler, _prefilled, CompletedWaits), TaskWait.Expected(CompletedWaits));

    /// <summary>A wait on a completed task: no park.</summary>
    [BenchmarkCategory("Completed")]
    [Benchmark(OperationsPerInvoke = CompletedWaits)]
    public long CompletedTask() => Verify.Result("TaskWait.CompletedTask", TaskWait.CompletedTask(Scheduler, CompletedWaits), TaskWait.Expected(CompletedWaits));

    /// <summary>The pending-wait baseline: await, resuming inside the completion on the helper thread.</summary>
    [BenchmarkCategory("Pending")]
    [Benchmark(Baseline = true, OperationsPerInvoke = PendingWaits)]
    public long Await() => Verify.Result("TaskWait.Await", TaskWait.Await(PendingWaits, continuationsOnThreadPool: false), TaskWait.Expected(PendingWaits));

    /// <summary>Await on tasks whose continuations run asynchronously: each await resumes on a thread-pool thread.</summary>
    [BenchmarkCategory("Pending")]
    [Benchmark(OperationsPerInvoke = PendingWaits)]
    public long AwaitOnThreadPool() => Verify.Result("TaskWait.AwaitOnThreadPool", TaskWait.Await(PendingWaits, continuationsOnThreadPool: true), TaskWait.Expected(PendingWaits));

    /// <summary>A green thread parks on each task and resumes on a worker of its scheduler.</summary>
    [BenchmarkCategory("Pending")]
    [Benchmark(OperationsPerInvoke = PendingWaits)]
    public long PendingTask() => Verify.Result("TaskWait.PendingTask", TaskWait.PendingTask(Scheduler, PendingWaits), TaskWait.Expected(PendingWaits));

    /// <summary>For comparison: a green thread receives a message the helper thread sends, the scheduler's own wake-up from outside.</summary>
    [BenchmarkCategory("Pending")]
    [Benchmark(OperationsPerInvoke = PendingWaits)]
    public long ReceiveFromHelper() => Verify.Result("TaskWait.ReceiveFromHelper", TaskWait.ReceiveFromHelper(Scheduler, PendingWaits), TaskWait.Expected(PendingWaits));
}
