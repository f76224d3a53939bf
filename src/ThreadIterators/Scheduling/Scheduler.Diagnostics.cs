using System;
using System.Collections.Generic;
using System.Linq;

namespace ThreadIterators;

// Deadlock diagnosis on demand: the wait-for graph, read from what parked threads already hold.
public sealed partial class Scheduler
{
    /// <summary>
    /// Takes the wait-for graph of this scheduler's live green threads: what each waits for, which threads it waits
    /// on, and the cycles among them (deadlocks). Any thread, at any time; the running threads pay nothing for it.
    /// </summary>
    /// <returns>The graph; its <see cref="WaitGraph.ToString"/> is a readable report.</returns>
    /// <remarks>
    /// It reads state while threads run, so it is exact only when nothing can run; a cycle it reports among joins,
    /// asks, puts into full mailboxes and pulls is a deadlock whenever it is read.
    /// </remarks>
    public WaitGraph GetWaitGraph()
    {
        var running = new HashSet<long>(Workers.Select(static w => w.RunningId).Where(static id => id != 0));
        var waits = new List<ThreadWait>();
        foreach (var thread in _registry.Snapshot())
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

        return new WaitGraph(this, waits);
    }

    /// <summary>
    /// Blocks the calling OS thread until every green thread has ended, or throws a <see cref="WaitTimeoutException"/>
    /// that holds the wait-for graph once <paramref name="timeout"/> has passed.
    /// </summary>
    /// <param name="timeout">How long to wait: zero or more, or <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>.</param>
    /// <exception cref="WaitTimeoutException">The timeout passed first; its message says who waits on whom.</exception>
    /// <exception cref="InvalidOperationException">Called on a worker of this scheduler.</exception>
    public void WaitForAllOrThrow(TimeSpan timeout)
    {
        if (!WaitForAll(timeout))
        {
            throw new WaitTimeoutException($"{this}: green threads were still live after {timeout}.", GetWaitGraph());
        }
    }
}
