using System;
using System.Collections.Generic;
using System.Diagnostics.Tracing;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

// Disposal: refusing its own workers, stopping them and the watchdog and the timers, then ending every live thread on
// the disposing thread, so finally blocks run. Dispose, any thread but this scheduler's workers:
//   1. Refuse a call from one of its own workers (it would wait for itself).
//   2. Mark the scheduler stopping (an interlocked exchange) and note the disposing OS thread. A later Dispose waits
//      for the first to finish (a task completed in a finally block at its end), unless it is made on that OS thread,
//      by a finally block the disposal runs, which would wait for itself; a later DisposeAsync returns that task. Spawn
//      now throws an ObjectDisposedException naming the scheduler and the thread; a spawn already past its check sees
//      the mark after registering the thread (step 6 of spawning, in the header of Scheduler.cs).
//   3. Set every worker's park signal. Each worker finishes the turn it is in (a turn is bounded by the step budget),
//      sees the mark, and leaves its loop.
//   4. Join every worker's OS thread and take back its live-count credit; then stop the watchdog (after the workers, so
//      it never takes a run-next thread from a worker that has stopped) and dispose the timer queue: its pending
//      entries are forgotten, and no entry fires after this step (the remarks of TimerQueue); a queue first asked for
//      after this is a disposed one. Then end the waits for room of one-shot sends whose bounded target was full
//      (StopTimerSends).
//   5. Take every thread still in the registry that has not ended (parked, sleeping, or ready but not run), newest
//      first: a thread that joins another was most often spawned after it, and stopping the joiner first takes it off
//      the target's joiners before the target's end would make it ready. For each, on the disposing thread (StopParked,
//      in Scheduler.Ending.cs), let its event forget it (WaitingOn.Abandon), then dispose its enumerator, so finally
//      blocks run, with GreenThread.Current the thread (OsThreadContext.Stopping). An exception from a finally block is
//      reported through UnobservedFault and becomes the thread's fault; otherwise joiners outside the scheduler see an
//      OperationCanceledException, or the thread's GreenThreadStoppedException if a stop was pending.
//   6. Report the faults that were never observed.
// Dispose(TimeSpan) runs the same disposal on its own thread (DisposeAsync) and waits for it at most the timeout. Steps
// 3 and 4 wait on turns and step 5 on finally blocks, neither of which can be interrupted, so on a timeout it names the
// threads not stopped: a snapshot of the registry (threads live, or holding a worker), then the list step 5 took (kept
// in _beingDisposed for this), less those that have ended.
// What the events' Abandon does: a receiver parked on a mailbox gives up the mailbox's park mark (Mailbox.Abandon, in
// Mailbox.TakingBack.cs), so that a green thread of another scheduler can receive from it later; a send that had
// already taken the mark appends its message as usual, and its wake-up of the ended thread is ignored. Abandon then
// waits until every park has been matched by a wake-up (_wakes equals _parks): a sender that took the mark but has not
// yet read the receiver would otherwise wake the newcomer instead of the ended thread (ParkRaceTests forces this
// through TestHooks.BeforeWakeRead). A sender parked on a put, or a shared mailbox's receiver, that a release had
// already woken passes the wake-up on; a thread waiting for credits leaves the window's queue, and the credit a release
// brings to its place goes back to the window; a task, channel or token wait forgets its thread; the pull events
// abandon the mailbox receive they wait through; a joiner parked on Exited or Ended leaves the joined thread's joiners,
// so that thread, if disposed after it, makes no ended thread ready.
public sealed partial class Scheduler
{
    /// <summary>
    /// Stops the workers, then disposes every green thread still live, so their <c>finally</c> blocks run. Joiners
    /// outside the scheduler see an <see cref="OperationCanceledException"/>.
    /// </summary>
    /// <remarks>
    /// A thread that is running finishes its current turn first. Exceptions from <c>finally</c> blocks are reported
    /// through <see cref="UnobservedFault"/>. A call made while another disposal runs returns once that one has
    /// finished (a call from a <c>finally</c> block that the disposal itself runs returns at once).
    /// </remarks>
    /// <exception cref="InvalidOperationException">Called from a green thread of this scheduler.</exception>
    public void Dispose()
    {
        ThrowIfOnOwnWorker("tried to dispose its own scheduler; a worker cannot wait for itself to stop");

        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            if (Volatile.Read(ref _disposingOsThread) != Environment.CurrentManagedThreadId)
            {
                // Blocking, as the first call blocks; it cannot be one of this scheduler's workers (refused above).
                _disposal.Task.GetAwaiter().GetResult();
            }

            return;
        }

        Volatile.Write(ref _disposingOsThread, Environment.CurrentManagedThreadId);
        try
        {
            DisposeOnce();
        }
        finally
        {
            _disposal.TrySetResult();
        }
    }

    /// <summary>
    /// Disposes the scheduler as <see cref="Dispose()"/> does, but waits at most <paramref name="timeout"/> for it, and
    /// returns the green threads it could not stop in that time: those that hold a worker in a turn that does not
    /// yield, whose <c>finally</c> blocks still run, or that wait their turn behind them. The disposal goes on in the
    /// background and finishes once they let it; <see cref="DisposeAsync"/> returns its task.
    /// </summary>
    /// <remarks>
    /// <para>
    /// A green thread cannot be taken off its worker in the middle of a turn, nor a <c>finally</c> block interrupted:
    /// like <see cref="System.Threading.Thread.Join(TimeSpan)"/>, this only stops waiting. What it returns tells the
    /// operator which code to look at (each thread's name, and in the debugger how far it got). An empty list means
    /// the disposal has finished.
    /// </para>
    /// <para>
    /// Any thread but this scheduler's workers. A call while another disposal runs waits for that one, up to the
    /// timeout; a call from a <c>finally</c> block the disposal itself runs returns at once, naming the threads not
    /// disposed yet.
    /// </para>
    /// </remarks>
    /// <param name="timeout">How long to wait: zero or more, or <see cref="Timeout.InfiniteTimeSpan"/>.</param>
    /// <returns>The threads not stopped when the timeout passed, live threads first, then those being disposed; empty if the disposal finished.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative, other than <see cref="Timeout.InfiniteTimeSpan"/>.</exception>
    /// <exception cref="InvalidOperationException">Called from a green thread of this scheduler.</exception>
    /// <example>
    /// <code>
    /// var stuck = scheduler.Dispose(TimeSpan.FromSeconds(10));
    /// foreach (var thread in stuck)
    /// {
    ///     log.LogError("{Thread} did not stop within 10 s of the shutdown", thread);
    /// }
    /// </code>
    /// </example>
    public IReadOnlyList<GreenThread> Dispose(TimeSpan timeout)
    {
        if (timeout < TimeSpan.Zero && timeout != Timeout.InfiniteTimeSpan)
        {
            throw new ArgumentOutOfRangeException(nameof(timeout), timeout, $"{this} was given {timeout} to dispose in; give zero or more, or Timeout.InfiniteTimeSpan.");
        }

        ThrowIfOnOwnWorker("tried to dispose its own scheduler; a worker cannot wait for itself to stop");
        if (IsStopping && Volatile.Read(ref _disposingOsThread) == Environment.CurrentManagedThreadId)
        {
            return NotStopped();
        }

        var disposal = DisposeAsync().AsTask();
        if (((IAsyncResult)disposal).AsyncWaitHandle.WaitOne(timeout))
        {
            // Rethrows what the disposal threw, as Dispose() would.
            disposal.GetAwaiter().GetResult();
            return [];
        }

        return NotStopped();
    }

    /// <summary>The threads a disposal under way has not stopped: those still registered (live, or holding a worker), then those it is disposing or has yet to.</summary>
    private List<GreenThread> NotStopped()
    {
        var threads = _registry.Snapshot();
        if (Volatile.Read(ref _beingDisposed) is { } disposing)
        {
            threads.AddRange(disposing);
        }

        threads.RemoveAll(thread => thread.IsCompleted);
        return threads;
    }

    /// <summary>The first disposal's work.</summary>
    private void DisposeOnce()
    {
        foreach (var worker in Workers)
        {
            worker.Unpark();
        }

        foreach (var worker in Workers)
        {
            worker.Join();
            worker.ReturnAllLiveCredit();
        }

        _watchdog.Dispose();
        // Through Timers, so a queue first asked for after this (a timeout scheduled by plain code) is a disposed one
        // rather than a new one whose thread nobody stops.
        Timers.Dispose();
        StopTimerSends();
        var parked = _registry.TakeAll();
        Volatile.Write(ref _beingDisposed, parked);
        foreach (var thread in parked)
        {
            StopParked(thread);
        }

        ReportPendingUnobserved();
        RuntimeMetrics.Unregister(this);
        if (ThreadIteratorsEventSource.Log.IsEnabled(EventLevel.Informational, ThreadIteratorsEventSource.Keywords.Scheduler))
        {
            ThreadIteratorsEventSource.Log.SchedulerStop(Number);
        }
    }

    /// <summary>Disposes the scheduler without blocking the calling thread.</summary>
    /// <returns>A task that completes when disposal has finished.</returns>
    public ValueTask DisposeAsync()
    {
        ThrowIfOnOwnWorker("tried to dispose its own scheduler; a worker cannot wait for itself to stop");

        return IsStopping
            ? new ValueTask(_disposal.Task)
            : new ValueTask(Task.Factory.StartNew(Dispose, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default));
    }
}
