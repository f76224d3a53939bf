using System;
using System.Collections.Generic;

namespace ThreadIterators;

/// <summary>
/// Deadlock diagnosis on demand: the wait-for graph of a scheduler, read from what its parked threads already hold
/// (each event's <c>DescribeWait</c>), and the waits that throw it in their timeout exception. Extension methods, so
/// that the scheduler and its threads do not name the graph: the core gives the live threads and what each waits on,
/// and this feature reads them.
/// </summary>
public static class WaitDiagnostics
{
    /// <summary>
    /// Takes the wait-for graph of this scheduler's live green threads: what each waits for, which threads it waits
    /// on, and the cycles among them (deadlocks). Any thread, at any time; the running threads pay nothing for it.
    /// </summary>
    /// <param name="scheduler">The scheduler.</param>
    /// <returns>The graph; its <see cref="WaitGraph.ToString"/> is a readable report.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="scheduler"/> is null.</exception>
    /// <remarks>
    /// It reads state while threads run, so it is exact only when nothing can run; a cycle it reports among joins,
    /// asks, puts into full mailboxes and pulls is a deadlock whenever it is read.
    /// </remarks>
    public static WaitGraph GetWaitGraph(this Scheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        var running = new HashSet<long>();
        foreach (var worker in scheduler.Workers)
        {
            if (worker.RunningId is var id and not 0)
            {
                running.Add(id);
            }
        }

        var waits = new List<ThreadWait>();
        foreach (var thread in scheduler.LiveThreads())
        {
            var description = new WaitDescription();
            var waitingOn = thread.WaitingOn;
            if (waitingOn is null)
            {
                description.Say("its first turn (spawned, not yet run)");
            }
            else
            {
                waitingOn.DescribeWait(description);
            }

            waits.Add(new ThreadWait(thread, running.Contains(thread.Id), waitingOn, description));
        }

        return new WaitGraph(scheduler, waits);
    }

    /// <summary>
    /// Blocks the calling OS thread until every green thread of <paramref name="scheduler"/> has ended, or throws a
    /// <see cref="WaitTimeoutException"/> that holds the wait-for graph once <paramref name="timeout"/> has passed.
    /// </summary>
    /// <param name="scheduler">The scheduler.</param>
    /// <param name="timeout">How long to wait: zero or more, or <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>.</param>
    /// <exception cref="ArgumentNullException"><paramref name="scheduler"/> is null.</exception>
    /// <exception cref="WaitTimeoutException">The timeout passed first; its message says who waits on whom.</exception>
    /// <exception cref="InvalidOperationException">Called on a worker of this scheduler.</exception>
    public static void WaitForAllOrThrow(this Scheduler scheduler, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        if (!scheduler.WaitForAll(timeout))
        {
            throw new WaitTimeoutException($"{scheduler}: green threads were still live after {timeout}.", scheduler.GetWaitGraph());
        }
    }

    /// <summary>
    /// Blocks the calling OS thread until <paramref name="thread"/> ends, and rethrows the exception that ended it, if
    /// any; or throws a <see cref="WaitTimeoutException"/> holding its scheduler's wait-for graph once
    /// <paramref name="timeout"/> has passed.
    /// </summary>
    /// <param name="thread">The thread.</param>
    /// <param name="timeout">How long to wait: zero or more, or <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>.</param>
    /// <exception cref="ArgumentNullException"><paramref name="thread"/> is null.</exception>
    /// <exception cref="WaitTimeoutException">The timeout passed first; its message says what this thread and the others wait for.</exception>
    /// <exception cref="InvalidOperationException">Called on a worker of this thread's scheduler; yield <see cref="GreenThread.Exited"/> instead.</exception>
    public static void WaitOrThrow(this GreenThread thread, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(thread);
        if (!thread.Wait(timeout))
        {
            throw new WaitTimeoutException($"{thread} had not ended after {timeout}.", thread.Scheduler.GetWaitGraph());
        }
    }
}
