using System;
using System.Diagnostics.Tracing;
using System.Threading;

namespace ThreadIterators;

// Long turns: a green thread that holds its worker without waiting, found by the watchdog thread (Watchdog.cs) from
// outside, so the hop path pays nothing for the check.
public sealed partial class Scheduler
{
    /// <summary>
    /// Raised when one turn of a green thread has held its worker longer than
    /// <see cref="SchedulerOptions.LongTurnThreshold"/> (one second unless set): the thread blocked its OS thread (a
    /// synchronous wait such as <c>task.Wait()</c> or <c>.Result</c>, <c>Thread.Sleep</c>, a lock, a blocking I/O
    /// call) or computed without yielding, and every other green thread queued on that worker waits for it. Raised once
    /// per such turn, while it is still going on.
    /// </summary>
    /// <remarks>
    /// Raised on the scheduler's watchdog thread; a handler should be quick, and must not block. Without a handler the
    /// turn is written to standard error. An exception thrown by a handler is written there too. Wait for blocking
    /// work with an event instead: a task's event, or run the blocking call on the thread pool and wait for its task.
    /// </remarks>
    public event EventHandler<LongTurnEventArgs>? LongTurn;

    /// <summary>Reports a long turn of the thread with <paramref name="id"/> on worker <paramref name="workerIndex"/>; the watchdog thread.</summary>
    internal void ReportLongTurn(long id, int workerIndex, TimeSpan duration, TimeSpan gcPause)
    {
        if (_registry.Find(id) is not { } thread)
        {
            // It ended between the watchdog's look and now.
            return;
        }

        Interlocked.Increment(ref Counts.WatchdogReports);
        if (ThreadIteratorsEventSource.Log.IsEnabled(EventLevel.Warning, ThreadIteratorsEventSource.Keywords.Faults))
        {
            ThreadIteratorsEventSource.Log.LongTurn(Number, id, (long)duration.TotalMicroseconds);
        }

        var handler = LongTurn;
        if (handler is null)
        {
            Console.Error.WriteLine($"ThreadIterators: {thread} has held worker {workerIndex} for {duration.TotalMilliseconds:F0} ms without waiting{(gcPause > TimeSpan.Zero ? $" ({gcPause.TotalMilliseconds:F0} ms of it paused for garbage collection)" : string.Empty)}; it blocks or computes without yielding.");
            return;
        }

        try
        {
            handler(this, new LongTurnEventArgs(thread, workerIndex, duration, gcPause));
        }
        catch (Exception exception)
        {
            // The watchdog thread must go on; an exception escaping it would end the process.
            Console.Error.WriteLine($"ThreadIterators: a {nameof(LongTurn)} handler threw: {exception}");
        }
    }
}
