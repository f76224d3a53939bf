using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

// The end of a green thread: on its worker when its body ends or faults, or on the disposing thread for a thread still
// live when the workers stopped; and the live count that WaitForAll and WhenAll wait on.
//
// Failure:
//   1. An exception from MoveNext ends the thread (Worker.RunTurn). So does a misuse found at a yield (yielding null,
//      receiving from another thread's mailbox or with another receiver's shared receive event, yielding a Put twice,
//      joining itself or a thread of another scheduler): the thread is faulted with an InvalidOperationException that
//      names it and what it did. A stop ends it at its next wait with a GreenThreadStoppedException (the header of
//      GreenThread.cs).
//   2. Exit disposes the enumerator, so its finally blocks run; an exception from one becomes the fault if there was
//      none, and is reported as unobserved at once if there was. The worker then takes the thread out of the live count
//      (into its credit: the shared count reaches zero only once the worker goes idle, after the end is told), and
//      GreenThread.Complete ends it: it tells the mailboxes the thread received from, then decides, tells and publishes
//      the end with the fault captured by ExceptionDispatchInfo (the header of ThreadEnd.cs). A thread that ended
//      without a fault and with nothing waiting is only marked ended; one that faulted gets its ExitEvent then, if
//      nothing asked for one before.
//   3. A green thread joined on Exited resumes into the same exception: its own body ends with it (a C# iterator cannot
//      catch at a yield, so this is what a throw at the yield would do). Wait(), AsTask() and Exception rethrow or
//      return the original exception, with its original stack trace. A thread joined on Ended (an EndedEvent: the same
//      joiners, lock and wake-up, its own Resume) resumes without it and reads Outcome: Faulted, or Canceled for an
//      OperationCanceledException (the header of ExitEvent.cs).
//   4. A fault that nothing observes (nothing joined, waited, awaited or read Exception or a faulted Outcome; a Wait
//      with a timeout that passed before the end observed nothing) gets a FaultSentinel when the end is decided, a
//      small finalizable object the scheduler tracks weakly (Scheduler.UnobservedFaults.cs). It is reported through
//      UnobservedFault, as unobserved task exceptions are, when the handle is garbage collected or when the scheduler
//      is disposed, whichever is first; without a handler, to standard error. Observing the fault later suppresses it.
//      A stop is no fault: Exit never reports a GreenThreadStoppedException, nor an OperationCanceledException while
//      the scheduler is being disposed (the disposal's own cancellation, as a supervisor refused a restart meets it).
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
        if (Tracing.Seen)
        {
            // Before the end is told: whoever waits for it then finds the thread's spans ended.
            try
            {
                Tracing.Ended(thread, fault, System.Diagnostics.Activity.Current);
            }
            catch (Exception exception)
            {
                // An activity listener's: the thread is ending, and must not be ended again by the turn's catch.
                ReportUnobserved(thread, exception);
            }
        }

        worker.Counters.CountEnd(ThreadEnd.OutcomeOf(fault));

        // Out of the live count before anyone sees the end, so a joiner reads a count without it. This never brings
        // the count to zero (the worker keeps credit; see GiveLiveCredit): that happens when the worker goes idle,
        // after the end is told. A stop is no fault to report: whoever stopped the thread asked for its end. Nor is a
        // cancellation while the scheduler is being disposed: the disposal is ending every thread, and one that ends a
        // little sooner, canceled because its scheduler refused it (a supervisor whose restart found it stopping), was
        // ended by that disposal too.
        worker.GiveLiveCredit();
        thread.Complete(fault, report: fault?.SourceException switch
        {
            GreenThreadStoppedException => false,
            OperationCanceledException => !IsStopping,
            _ => true,
        });
        TraceEnd(thread, fault);
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
        if (Tracing.Seen)
        {
            Tracing.Ended(thread, fault, thread.Activity);
        }

        Counts.CountEnd(ThreadEnd.OutcomeOf(fault));
        thread.Complete(fault, report: false);
        TraceEnd(thread, fault);
        ThreadEnded();
    }

    /// <summary>Writes a thread's end to the event source, if a session asks for threads.</summary>
    private void TraceEnd(GreenThread thread, ExceptionDispatchInfo? fault)
    {
        if (ThreadIteratorsEventSource.Log.ThreadsEnabled)
        {
            ThreadIteratorsEventSource.Log.ThreadEnd(Number, thread.Id, (long)ThreadEnd.OutcomeOf(fault));
        }
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
