using System.Threading;

namespace ThreadIterators;

/// <summary>
/// One deadline in a scheduler's <see cref="TimerQueue"/>; a subclass says what reaching it does. An entry is pending
/// in at most one queue at a time, at most once: scheduling it again while pending moves it. It may be scheduled
/// again after it fired or was cancelled, as often as its owner likes, so an owner keeps one entry for good.
/// </summary>
/// <remarks>
/// Any thread may schedule or cancel it through its queue. <see cref="HeapIndex"/> is the queue's, written only under
/// the queue's lock; <see cref="Fire"/> runs on the queue's firing thread.
/// </remarks>
internal abstract class TimerEntry
{
    /// <summary>
    /// Where the entry sits in its queue's heap while pending, or -1 when it is not pending (never scheduled, fired or
    /// being fired, cancelled, or its queue disposed). Written only by the queue, under its lock; read without the
    /// lock by <see cref="TimerQueue.Cancel"/>'s fast path.
    /// </summary>
    internal int HeapIndex = -1;

#if DEBUG
    /// <summary>The queue the entry is pending in, so a DEBUG build catches an entry scheduled in two queues.</summary>
    internal TimerQueue? Owner;
#endif

    /// <summary>Gets a value indicating whether the entry is pending: scheduled, and neither fired, being fired nor cancelled.</summary>
    internal bool IsPending => Volatile.Read(ref HeapIndex) >= 0;

    /// <summary>
    /// Called once for each <see cref="TimerQueue.Schedule"/> that reaches its deadline and was not cancelled in time:
    /// on the queue's firing thread, outside any lock of the queue. Must not block or throw: an exception here is a
    /// runtime bug, and surfaces on the firing thread (with the system clock, that thread's unhandled exception ends
    /// the process), never swallowed.
    /// </summary>
    internal abstract void Fire();
}
