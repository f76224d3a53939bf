using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

// The end of a green thread: on its worker when its body ends or faults, or on the disposing thread for a thread
// still live when the workers stopped; and the live count that WaitForAll and WhenAll wait on.
public sealed partial class Scheduler
{
    /// <summary>Ends a thread on <paramref name="worker"/>: disposes its body (running its <c>finally</c> blocks), publishes the outcome and forgets it.</summary>
    internal void Exit(GreenThread thread, ExceptionDispatchInfo? fault, Worker worker)
    {
        try
        {
            thread.Body?.Dispose();
        }
        catch (Exception exception)
        {
            // The body's own fault, if any, stays the thread's; a second one from a finally block is reported at once.
            if (fault is null)
            {
                fault = ExceptionDispatchInfo.Capture(exception);
            }
            else
            {
                ReportUnobserved(thread, exception);
            }
        }

        _registry.Remove(thread);
        thread.AssertEnded(byDisposal: false);
        worker.Counters.CountEnd(ExitEvent.OutcomeOf(fault));

        // A stop is no fault to report: whoever stopped the thread asked for its end.
        thread.Complete(fault, report: fault?.SourceException is not GreenThreadStoppedException);
        ThreadEnded();
    }

    /// <summary>Disposes a thread left live when the workers stopped. Disposing thread only, after the workers have stopped.</summary>
    private void StopParked(GreenThread thread)
    {
        thread.WaitingOn?.Abandon(thread);
        ExceptionDispatchInfo? fault = null;
        var context = OsThreadContext.Current;
        var outer = context.Stopping;
        context.Stopping = thread;
        try
        {
            thread.Body?.Dispose();
        }
        catch (Exception exception)
        {
            fault = ExceptionDispatchInfo.Capture(exception);
            ReportUnobserved(thread, exception);
        }
        finally
        {
            context.Stopping = outer;
        }

        // A stop asked for before the disposal reached the thread gives it its reason.
        fault ??= thread.PendingFault ?? ExceptionDispatchInfo.Capture(new OperationCanceledException($"{thread} was stopped because its scheduler was disposed."));
        thread.AssertEnded(byDisposal: true);
        Counts.CountEnd(ExitEvent.OutcomeOf(fault));
        thread.Complete(fault, report: false);
        ThreadEnded();
    }

    private void ThreadEnded()
    {
        if (Interlocked.Decrement(ref _counters.Live) != 0)
        {
            return;
        }

        List<TaskCompletionSource>? whenAll;
        lock (_liveMonitor)
        {
            Monitor.PulseAll(_liveMonitor);
            if (Interlocked.Read(ref _counters.Live) != 0)
            {
                // A spawn came in between; the tasks wait for the next time the count reaches zero.
                return;
            }

            whenAll = _whenAll;
            _whenAll = null;
        }

        if (whenAll is not null)
        {
            foreach (var task in whenAll)
            {
                task.TrySetResult();
            }
        }
    }
}
