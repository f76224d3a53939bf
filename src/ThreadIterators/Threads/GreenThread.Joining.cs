using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

// Joining and hearing the end: OS-thread waits, AsTask, and the exit listeners of the thread's end, all through its
// exit event, made on demand.
public sealed partial class GreenThread
{
    /// <summary>Blocks the calling OS thread until this thread ends, and rethrows the exception that ended it, if any.</summary>
    /// <exception cref="InvalidOperationException">Called on a worker of this thread's scheduler, where blocking could deadlock it; yield <see cref="Exited"/> instead.</exception>
    public void Wait() => Wait(Timeout.InfiniteTimeSpan);

    /// <summary>Blocks the calling OS thread until this thread ends or the timeout passes.</summary>
    /// <param name="timeout">How long to wait; <see cref="Timeout.InfiniteTimeSpan"/> waits forever.</param>
    /// <returns>True if the thread ended successfully; false if the timeout passed first.</returns>
    /// <exception cref="InvalidOperationException">Called on a worker of this thread's scheduler; yield <see cref="Exited"/> instead.</exception>
    public bool Wait(TimeSpan timeout)
    {
        if (OsThreadContext.Current is { } context && (context.Worker?.Scheduler == Scheduler || (context.Stopping?.Scheduler == Scheduler && !IsCompleted)))
        {
            // Only build the message when it is needed. From a finally block that the disposal runs, a wait for a
            // thread it has already disposed returns; for one it has not, it would never end.
            Scheduler.ThrowIfOnOwnWorker($"called Wait() on {this}, which would block a worker of the scheduler, or its disposal; yield {nameof(Exited)} instead", orDisposing: true);
        }

        return GetExitEvent().Wait(timeout);
    }

    /// <summary>
    /// Gets a task that completes when this thread ends, faulted with the thread's exception if it has one, so plain
    /// async code can <c>await thread.AsTask()</c>.
    /// </summary>
    /// <remarks>
    /// <see cref="GreenThread"/> is deliberately not awaitable itself: <see cref="Scheduler.Spawn"/> would then return
    /// an awaitable, and every fire-and-forget spawn in an async method would draw warning CS4014.
    /// </remarks>
    /// <returns>The task; continuations run asynchronously, never on the worker that completed it.</returns>
    public Task AsTask() => GetExitEvent().AsTask();

    /// <summary>
    /// Adds a listener to be told of this thread's end (see <see cref="IExitListener"/>), or tells it at once if the
    /// end is decided. How a feature (a watch, a link) hears the end without the core naming it. Any thread.
    /// </summary>
    /// <returns>True if the listener will be told; false if the thread had ended (it was told, unless a removal took it first).</returns>
    internal bool AddExitListener(IExitListener listener) => GetExitEvent().AddListener(listener);

    /// <summary>
    /// Drops a listener its owner has taken back, so that it holds no memory until the thread ends. Any thread; a
    /// listener this thread does not hold is left alone.
    /// </summary>
    internal void RemoveExitListener(IExitListener listener) => (Volatile.Read(ref _exit) as ExitEvent)?.RemoveListener(listener);

    /// <summary>
    /// Gets the first of this thread's exit listeners, most recent first, that <paramref name="match"/> accepts, or
    /// null; none once the end is decided. Any thread; <paramref name="match"/> runs under a lock, so it must take none.
    /// </summary>
    internal IExitListener? FindExitListener<TState>(Func<IExitListener, TState, bool> match, TState state) =>
        (Volatile.Read(ref _exit) as ExitEvent)?.FindListener(match, state);

    private ExitEvent GetExitEvent()
    {
        while (true)
        {
            var exit = Volatile.Read(ref _exit);
            if (exit is ExitEvent existing)
            {
                return existing;
            }

            var created = exit == s_exitedQuietly ? ExitEvent.CreateCompleted(this) : new ExitEvent(this, exit as IReceiverEndHandler);
            if (Interlocked.CompareExchange(ref _exit, created, exit) == exit)
            {
                return created;
            }
        }
    }
}
