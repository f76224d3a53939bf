using System.Collections.Generic;
using System.Linq;
using System.Text;

namespace ThreadIterators;

/// <summary>
/// Who waits on whom: each live green thread of a scheduler with what it waits for, and the cycles among them. A
/// cycle of joins, asks, puts into full mailboxes or pulls is a deadlock: no thread in it can go on until another in
/// it does. Taken on demand by <see cref="WaitDiagnostics.GetWaitGraph"/>, and carried by the
/// <see cref="WaitTimeoutException"/> of <see cref="WaitDiagnostics.WaitForAllOrThrow"/> and
/// <see cref="WaitDiagnostics.WaitOrThrow"/>.
/// </summary>
/// <remarks>
/// It costs the running threads nothing: it reads the event each parked thread already holds (the mailbox, the
/// joined thread, the server of an ask), on the OS thread that asks for it, while the threads go on. So it is a
/// snapshot of moving state: exact only when nothing can run, as in a deadlock.
/// </remarks>
public sealed class WaitGraph
{
    /// <summary>Most threads <see cref="ToString"/> lists besides those in cycles, so a report of a million threads stays readable.</summary>
    private const int MostListed = 100;

    internal WaitGraph(Scheduler scheduler, List<ThreadWait> threads)
    {
        Scheduler = scheduler;
        threads.Sort(static (a, b) => a.Thread.Id.CompareTo(b.Thread.Id));
        Threads = threads;
        Cycles = WaitCycles.Find(threads);
        if (Cycles.Count != 0 && ThreadIteratorsEventSource.Log.IsEnabled(System.Diagnostics.Tracing.EventLevel.Warning, ThreadIteratorsEventSource.Keywords.Deadlocks))
        {
            // Every graph taken that holds a cycle tells the event source: a wait that timed out with WaitOrThrow, or
            // a look of the user's own.
            ThreadIteratorsEventSource.Log.Deadlock(scheduler.ToString(), ToString());
        }
    }

    /// <summary>Gets the scheduler whose threads these are.</summary>
    public Scheduler Scheduler { get; }

    /// <summary>Gets every thread that was live when the graph was taken, in id order.</summary>
    public IReadOnlyList<ThreadWait> Threads { get; }

    /// <summary>
    /// Gets the cycles of the graph: each a list of threads where each waits on the next and the last on the first,
    /// starting from its lowest id. A thread joining itself would be a cycle of one; the runtime refuses that join.
    /// </summary>
    public IReadOnlyList<IReadOnlyList<GreenThread>> Cycles { get; }

    /// <summary>Gets the entry of <paramref name="thread"/>, or null if it was not live when the graph was taken.</summary>
    /// <param name="thread">A thread of <see cref="Scheduler"/>.</param>
    /// <returns>The entry, or null.</returns>
    public ThreadWait? Find(GreenThread thread)
    {
        var threads = (List<ThreadWait>)Threads;
        int low = 0, high = threads.Count - 1;
        while (low <= high)
        {
            var middle = (low + high) >>> 1;
            var id = threads[middle].Thread.Id;
            if (id == thread.Id)
            {
                return threads[middle].Thread == thread ? threads[middle] : null;
            }

            if (id < thread.Id)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        return null;
    }

    /// <summary>
    /// Returns the report: a line per cycle, then a line per thread (those in cycles first, then up to 100 others),
    /// each with what it waits for.
    /// </summary>
    /// <returns>The report.</returns>
    public override string ToString()
    {
        var text = new StringBuilder();
        var parked = Threads.Count(static t => !t.IsRunning);
        text.Append($"{Scheduler}: {Threads.Count} live {(Threads.Count == 1 ? "thread" : "threads")}, {parked} not running");
        if (Cycles.Count == 0)
        {
            text.Append(", no cycle of waits");
        }

        text.AppendLine(".");
        foreach (var cycle in Cycles)
        {
            text.Append("Deadlock, a cycle of waits: ");
            text.AppendJoin(" -> ", cycle.Append(cycle[0]));
            text.AppendLine();
        }

        var inCycles = Cycles.SelectMany(static c => c).ToHashSet();
        var listed = 0;
        foreach (var wait in Threads.Where(t => inCycles.Contains(t.Thread)).Concat(Threads.Where(t => !inCycles.Contains(t.Thread))))
        {
            if (!inCycles.Contains(wait.Thread) && listed++ == MostListed)
            {
                text.AppendLine($"  ... and {Threads.Count - inCycles.Count - MostListed} more.");
                break;
            }

            text.Append("  ").AppendLine(wait.ToString());
        }

        return text.ToString().TrimEnd();
    }
}
