using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

// Disposal: refusing its own workers, stopping them and the watchdog and the timers, then ending every live thread
// on the disposing thread, so finally blocks run.
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
