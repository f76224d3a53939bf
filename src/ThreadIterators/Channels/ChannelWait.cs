using System;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// What <see cref="ChannelReadEvent{T}"/> and <see cref="ChannelWriteEvent{T}"/> share: the thread the event is bound
/// to, and the channel's <c>WaitToReadAsync</c> or <c>WaitToWriteAsync</c> the event is waiting on, held in a
/// <see cref="TaskEvent{T}"/> so a pending wait parks, resumes on the thread's own scheduler, and lingers after a
/// losing choice exactly as a task wait does (docs/architecture.md, "Task waits" and "Channels").
/// </summary>
/// <remarks>
/// A mutable struct held in a field of its event (never copied), so a channel event costs no second object until its
/// first wait that does not complete at once. The bound thread's worker only, and the disposing thread for
/// <see cref="Abandon"/>.
/// </remarks>
internal struct ChannelWait
{
    /// <summary>The task event that waits on the channel; made by the first wait the channel could not answer at once, then reused.</summary>
    private TaskEvent<bool>? _task;

    /// <summary>
    /// Whether <see cref="_task"/> holds a wait whose outcome has not been read yet: armed, parked on, or lingering
    /// after a choice chose another branch. While it does, the event waits on that one again instead of asking the
    /// channel for another (a single-reader channel cancels its previous wait when asked for a second).
    /// </summary>
    private bool _pending;

    /// <summary>The green thread the event is bound to; set by its first yield.</summary>
    private GreenThread? _owner;

    /// <summary>Whether the scheduler was disposed while the thread waited; the channel's wait may still complete, so the event cannot wait again.</summary>
    private bool _abandoned;

    /// <summary>Gets a value indicating whether a wait on the channel is outstanding (see <see cref="_pending"/>).</summary>
    internal readonly bool IsPending => _pending;

    /// <summary>Gets the task event holding the outstanding wait. Only while <see cref="IsPending"/>.</summary>
    internal readonly TaskEvent<bool> Task => _task!;

    /// <summary>
    /// Binds the event to <paramref name="thread"/> at its first yield, and refuses any other thread: the event keeps
    /// the item it read or is to write, which two threads would overwrite. Refuses an abandoned event.
    /// </summary>
    internal void Bind(GreenThread thread, Event owner)
    {
        if (_owner != thread)
        {
            var bound = Interlocked.CompareExchange(ref _owner, thread, null);
            if (bound is not null && bound != thread)
            {
                throw new InvalidOperationException($"{thread} yielded {owner}, which belongs to {bound}; a channel event is bound to the first green thread that yields it, so give each thread its own.");
            }
        }

        if (_abandoned)
        {
            throw new InvalidOperationException($"{thread} yielded {owner}, whose wait was abandoned when its scheduler was disposed; the channel may still complete that wait, so use a new event.");
        }
    }

    /// <summary>Takes <paramref name="wait"/>, just asked of the channel, as the outstanding wait.</summary>
    internal void Arm(ValueTask<bool> wait)
    {
        _task ??= new TaskEvent<bool>();
        _task.For(wait);
        _pending = true;
    }

    /// <summary>
    /// Reads the outcome of the wait that has just completed: true if the channel may have an item (or room) now;
    /// false if it is completed, with <paramref name="error"/> the error it was completed with, or null.
    /// </summary>
    internal bool TakeOutcome(out Exception? error)
    {
        _pending = false;
        error = null;
        try
        {
            return _task!.Result;
        }
        catch (ChannelClosedException closed)
        {
            // Some channels wrap their error, or report a plain completion this way: the error is the inner one.
            error = closed.InnerException;
            return false;
        }
        catch (Exception exception)
        {
            // The built-in channels fail the wait with the error the channel was completed with.
            error = exception;
            return false;
        }
    }

    /// <summary>
    /// For a stop: takes <paramref name="thread"/>, parked on the channel's wait, back from the task event's
    /// continuation; true if this call took it. Any thread: the task event is read with a barrier because the stopping
    /// thread did not make it, and a thread that never parked on it is not its waiter, so the exchange fails.
    /// </summary>
    internal bool TryInterrupt(GreenThread thread) => Volatile.Read(ref _task) is { } task && task.TryInterrupt(thread);

    /// <summary>
    /// Finishes a wait a stop took back. The channel's wait stays outstanding and the event lingers on it, as after a
    /// losing choice; nothing was read or written. The stopped thread's worker, or the disposing thread.
    /// </summary>
    internal readonly void CompleteInterrupt(GreenThread thread) => _task!.CompleteInterrupt(thread);

    /// <summary>Forgets <paramref name="thread"/>, parked on the channel's wait when its scheduler was disposed. The disposing thread.</summary>
    internal void Abandon(GreenThread thread)
    {
        if (_pending)
        {
            _task!.Abandon(thread);
            _abandoned = true;
        }
    }
}
