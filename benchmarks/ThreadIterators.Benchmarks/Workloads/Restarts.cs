using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;
using ThreadIterators.Supervision;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Restarts of a crashing child, R times in a row, and what the same crashes cost without a supervisor. Each result is
/// the number of child bodies that ended the way the workload says (R), so a lost restart shows.
/// <list type="bullet">
/// <item>Supervised: a <see cref="Supervisor"/> (one-for-one, no backoff, an intensity of <see cref="int.MaxValue"/>
/// in one second) restarts a transient child that throws at its first step, R times; the R + 1st start waits for the
/// shutdown. Per restart: the exception, the watch's message, the supervisor's wake-up and bookkeeping, a new body
/// and thread.</item>
/// <item>SupervisedReturning: the same with a permanent child that returns instead of throwing: the restart without
/// the cost of an exception.</item>
/// <item>Unsupervised, the baseline: one green thread spawns a child that throws, joins it (<see cref="GreenThread.Ended"/>),
/// and spawns the next, R times: the crash, spawn and join with no supervisor.</item>
/// </list>
/// </summary>
public static class Restarts
{
    /// <summary>The result of <paramref name="restarts"/> restarts.</summary>
    public static long Expected(long restarts) => restarts;

    /// <summary>A supervisor restarts a child that crashes, <paramref name="restarts"/> times.</summary>
    public static long Supervised(Scheduler scheduler, int restarts, bool crash)
    {
        var ended = 0L;
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var starts = 0;
        var child = new ChildSpec("child", stop => Child(crash, restarts, ref starts, done, stop))
        {
            Restart = crash ? RestartType.Transient : RestartType.Permanent,
        };
        var supervisor = new Supervisor(new SupervisorOptions { Name = "restarts", MaxRestarts = int.MaxValue, Period = TimeSpan.FromSeconds(1) }, child);
        using var shutdown = new CancellationTokenSource();
        var thread = supervisor.Start(scheduler, shutdown.Token);
        done.Task.Wait();
        ended = supervisor.RestartCount;
        shutdown.Cancel();
        thread.Wait();
        return ended;
    }

    /// <summary>The baseline: one green thread spawns and joins a child that crashes, <paramref name="restarts"/> times.</summary>
    public static long Unsupervised(Scheduler scheduler, int restarts)
    {
        var crashed = new long[1];
        scheduler.Spawn(SpawnAndJoin(restarts, crashed), "spawner");
        scheduler.WaitForAll();
        return crashed[0];
    }

    private static IEnumerable<Event> Child(bool crash, int restarts, ref int starts, TaskCompletionSource done, CancellationToken stop)
    {
        if (Interlocked.Increment(ref starts) > restarts)
        {
            done.TrySetResult();
            return WaitFor(stop);
        }

        return crash ? Crash() : Return();
    }

    private static IEnumerable<Event> WaitFor(CancellationToken stop)
    {
        yield return Event.WhenCanceled(stop);
    }

    private static IEnumerable<Event> Crash()
    {
        throw new InvalidOperationException("crash");
#pragma warning disable CS0162 // An iterator needs a yield to be one, so that the throw happens in the thread, not in the factory.
        yield break;
#pragma warning restore CS0162
    }

    private static IEnumerable<Event> Return()
    {
        yield break;
    }

    private static IEnumerable<Event> SpawnAndJoin(int restarts, long[] crashed)
    {
        var scheduler = GreenThread.Current!.Scheduler;
        for (var i = 0; i < restarts; i++)
        {
            var child = scheduler.Spawn(Crash(), "child");
            yield return child.Ended;
            if (child.Outcome == ThreadOutcome.Faulted)
            {
                crashed[0]++;
            }
        }
    }
}
