using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Task waits: a green thread waits W times for a task, yielding one reusable <see cref="TaskEvent{T}"/>. Every task
/// completes with 1, so the result is W.
/// <list type="bullet">
/// <item>Completed: the task is one cached completed <see cref="Task{TResult}"/>, so no wait parks. Its baseline is a
/// receive that finds a message waiting, the other event that completes at once.</item>
/// <item>Pending: each task is a new <see cref="TaskCompletionSource{TResult}"/>'s, which one helper OS thread
/// (<see cref="CompletingThread"/>) completes once the waiter has handed it over. Its baseline is a plain async method
/// awaiting the same tasks completed the same way; its continuation then runs on the helper thread, inside the
/// completion, where the green thread is made ready on its own scheduler and resumes on a worker. For comparison, a
/// green thread receives messages the same helper thread sends, one per request: the scheduler's own wake-up from an
/// OS thread that is not one of its workers.</item>
/// </list>
/// </summary>
public static class TaskWait
{
    private static readonly Task<int> s_completed = Task.FromResult(1);

    /// <summary>The sum of the results of <paramref name="waits"/> waits.</summary>
    public static long Expected(long waits) => waits;

    /// <summary>A green thread waits for a completed task <paramref name="waits"/> times.</summary>
    public static long CompletedTask(Scheduler scheduler, long waits)
    {
        var sum = new StrongBox<long>();
        scheduler.Spawn(WaitCompleted(waits, sum));
        scheduler.WaitForAll();
        return sum.Value;
    }

    /// <summary>A mailbox holding <paramref name="messages"/> messages of 1, for <see cref="ReceiveWaiting"/>.</summary>
    public static Mailbox<int> Prefilled(long messages)
    {
        var mailbox = new Mailbox<int>();
        for (long i = 0; i < messages; i++)
        {
            mailbox.Send(1);
        }

        return mailbox;
    }

    /// <summary>The completed-wait baseline: a green thread receives <paramref name="messages"/> messages, each already waiting.</summary>
    public static long ReceiveWaiting(Scheduler scheduler, Mailbox<int> prefilled, long messages)
    {
        var sum = new StrongBox<long>();
        scheduler.Spawn(Receive(prefilled, messages, sum));
        scheduler.WaitForAll();
        return sum.Value;
    }

    /// <summary>A green thread waits <paramref name="waits"/> times for a task the helper thread completes.</summary>
    public static long PendingTask(Scheduler scheduler, long waits)
    {
        using var helper = new CompletingThread();
        var sum = new StrongBox<long>();
        scheduler.Spawn(WaitPending(helper, waits, sum));
        scheduler.WaitForAll();
        return sum.Value;
    }

    /// <summary>A green thread receives <paramref name="messages"/> messages, each sent by the helper thread when asked.</summary>
    public static long ReceiveFromHelper(Scheduler scheduler, long messages)
    {
        using var helper = new CompletingThread();
        var sum = new StrongBox<long>();
        scheduler.Spawn(ReceiveRequested(helper, messages, sum));
        scheduler.WaitForAll();
        return sum.Value;
    }

    /// <summary>
    /// The pending-wait baseline: an async method awaits <paramref name="waits"/> tasks the helper thread completes.
    /// With <paramref name="continuationsOnThreadPool"/> the tasks run their continuations asynchronously, so each
    /// await resumes on a thread-pool thread, not inside the completion.
    /// </summary>
    public static long Await(long waits, bool continuationsOnThreadPool)
    {
        using var helper = new CompletingThread();
        var options = continuationsOnThreadPool ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None;
        return AwaitPendingAsync(helper, waits, options).GetAwaiter().GetResult();
    }

    private static IEnumerable<Event> WaitCompleted(long waits, StrongBox<long> sum)
    {
        var wait = new TaskEvent<int>();
        long total = 0;
        for (long i = 0; i < waits; i++)
        {
            yield return wait.For(s_completed);
            total += wait.Result;
        }

        sum.Value = total;
    }

    private static IEnumerable<Event> Receive(Mailbox<int> inbox, long messages, StrongBox<long> sum)
    {
        var message = inbox.Recv();
        long total = 0;
        for (long i = 0; i < messages; i++)
        {
            yield return message;
            total += message.Value;
        }

        sum.Value = total;
    }

    private static IEnumerable<Event> WaitPending(CompletingThread helper, long waits, StrongBox<long> sum)
    {
        var wait = new TaskEvent<int>();
        long total = 0;
        for (long i = 0; i < waits; i++)
        {
            var completion = new TaskCompletionSource<int>();
            helper.Complete(completion);
            yield return wait.For(completion.Task);
            total += wait.Result;
        }

        sum.Value = total;
    }

    private static IEnumerable<Event> ReceiveRequested(CompletingThread helper, long messages, StrongBox<long> sum)
    {
        var inbox = new Mailbox<int>();
        var message = inbox.Recv();
        long total = 0;
        for (long i = 0; i < messages; i++)
        {
            helper.Send(inbox);
            yield return message;
            total += message.Value;
        }

        sum.Value = total;
    }

    private static async Task<long> AwaitPendingAsync(CompletingThread helper, long waits, TaskCreationOptions options)
    {
        long total = 0;
        for (long i = 0; i < waits; i++)
        {
            var completion = new TaskCompletionSource<int>(options);
            helper.Complete(completion);
            total += await completion.Task.ConfigureAwait(false);
        }

        return total;
    }
}
