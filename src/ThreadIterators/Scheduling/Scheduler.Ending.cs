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

        thread.AssertEnded(byDisposal: false);
        worker.Counters.CountEnd(ThreadEnd.OutcomeOf(fault));

        // Out of the live count before anyone sees the end, so a joiner reads a count without it. This never brings
        // the count to zero (the worker keeps credit; see GiveLiveCredit): that happens when the worker goes idle,
        // after the end is told. A stop is no fault to report: whoever stopped the thread asked for its end.
        worker.GiveLiveCredit();
        thread.Complete(fault, report: fault?.SourceException is not GreenThreadStoppedException);
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
        Counts.CountEnd(ThreadEnd.OutcomeOf(fault));
        thread.Complete(fault, report: false);
        ThreadEnded();
    }

    /// <summary>Accounts for a thread that ended off the workers: a failed spawn, or one the disposal stopped.</summary>
    private void ThreadEnded() => LiveDropped(Interlocked.Decrement(ref _counters.Live));

    /// <summary>
    /// Moves live-count credit to a worker (<paramref name="taken"/> above zero) or back from it (see
    /// <see cref="Worker.TakeLiveCredit"/>): when it spawns with none left, when it holds too much, when it goes idle
    /// and when it stops. The count reaches zero only here or in <see cref="ThreadEnded"/>.
    /// </summary>
    internal void AddLive(long taken) => LiveDropped(Interlocked.Add(ref _counters.Live, taken));

    /// <summary>Wakes <see cref="WaitForAll(TimeSpan)"/> and completes <see cref="WhenAll"/> if the count has just reached zero.</summary>
    private void LiveDropped(long live)
    {
        if (live != 0)
        {
            return;
        }

        _registry.NoneLive();
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

    /// <summary>
    /// Lets an idle worker's log drop the threads that ended since it last did. The live count bounds the live threads
    /// of any one log from above; it reads a few counts, off every hot path.
    /// </summary>
    internal void WorkerIdle(Worker worker) => _registry.WorkerIdle(worker, LiveThreadCount);
}
