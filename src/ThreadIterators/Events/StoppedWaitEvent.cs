using System;

namespace ThreadIterators;

/// <summary>
/// Stands in <see cref="GreenThread.WaitingOn"/> for a parked thread whose wait a stop took back
/// (<see cref="Event.TryInterrupt"/>): the thread was made ready by the stop, and its next turn finishes the
/// withdrawal on its own worker and ends it with <see cref="GreenThread.PendingFault"/>, the stop.
/// </summary>
/// <remarks>
/// Set by whoever took the wake-up (a stopping thread, or the thread's own worker after it parked), which owns the
/// thread until it makes it ready; read by the worker that runs it, or by the disposing thread.
/// </remarks>
internal sealed class StoppedWaitEvent(Event interrupted) : Event
{
    /// <summary>Never called: only a stop sets this event, and no body can yield it.</summary>
    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        throw new InvalidOperationException($"{thread} yielded {this}, which is the scheduler's own marker, not an event.");

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        interrupted.CompleteInterrupt(thread);
        return EventOutcome.Faulted;
    }

    internal override void Abandon(GreenThread thread) => interrupted.CompleteInterrupt(thread);

    /// <inheritdoc/>
    public override string ToString() => $"{interrupted}, withdrawn by a stop";

    // In a trace, the withdrawn wait in its own trace words, which may differ from its name.
    internal override void DescribeWait(WaitDescription into)
    {
        if (into.ForTrace)
        {
            into.Trace($"{WaitDescription.TraceOf(interrupted)}, withdrawn by a stop");
        }
        else
        {
            base.DescribeWait(into);
        }
    }
}
