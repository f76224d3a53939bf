
namespace ThreadIterators;

// Making threads ready and waking workers for them: the wake-up half of the park/wake protocol (see IdleWorkers); where
// a woken thread goes is Placement's. Any thread.
public sealed partial class Scheduler
{
    /// <summary>
    /// Makes a parked thread runnable, where the policy says (<see cref="Placement.Wake"/>; a waker that has its OS
    /// thread's context at hand, as a mailbox's sender does, calls that directly).
    /// </summary>
    internal void Ready(GreenThread thread) => Placement.Wake(thread, OsThreadContext.Current);

    /// <summary>
    /// Makes a parked thread runnable for a waker that goes on running: a receiver releasing senders that wait for
    /// room, a sender waking a receiver of a shared mailbox (<see cref="Placement.WakeAlongside"/>).
    /// </summary>
    internal void ReadyAlongside(GreenThread thread) => Placement.WakeAlongside(thread, OsThreadContext.Current);

    /// <summary>Adds a thread to the inject queue; any thread.</summary>
    internal void Inject(GreenThread thread, bool wake)
    {
        // The enqueue is an interlocked operation, so it is also the store-load fence the wake check needs.
        _inject.Enqueue(thread);
        if (wake)
        {
            WakeIdleWorker();
        }
    }

    internal GreenThread? TakeInjected() => _inject.TryDequeue(out var thread) ? thread : null;

    /// <summary>Gets a value indicating whether the inject queue holds threads; a snapshot.</summary>
    internal bool HasInjected => !_inject.IsEmpty;

    /// <summary>Queues one of the threads moved out of a full local run queue, waking a worker on the last of a batch. Any worker.</summary>
    internal void Overflow(GreenThread thread, bool wake)
    {
        _overflow.Enqueue(thread);
        if (wake)
        {
            WakeIdleWorker();
        }
    }

    internal GreenThread? TakeOverflowed() => _overflow.TryDequeue(out var thread) ? thread : null;

    /// <summary>
    /// Wakes one parked worker if there is one and no worker is already spinning for work. Called after work was
    /// published and a full fence was passed.
    /// </summary>
    internal void WakeIdleWorker()
    {
        if (Idle.AnyToWake)
        {
            Idle.TakeOne()?.Unpark();
        }
    }

    /// <summary>
    /// Wakes <paramref name="worker"/> if it is parked. Called after a thread was put in its inbound queue and a full
    /// fence was passed; the worker announces itself parked (a full fence) before it looks at that queue a last time.
    /// </summary>
    internal void WakeWorker(Worker worker)
    {
        Idle.Unlist(worker);
        worker.Unpark();
    }

    /// <summary>Ends spinning; a spinner that found work wakes another worker if more work is waiting, as Go's resetspinning does.</summary>
    internal void EndSpinning(bool foundWork)
    {
        Idle.EndSpinning();
        if (foundWork && HasVisibleWork())
        {
            WakeIdleWorker();
        }
    }

    private bool HasVisibleWork()
    {
        if (!_inject.IsEmpty || !_overflow.IsEmpty)
        {
            return true;
        }

        if (!Placement.Steals)
        {
            // Other workers could not take what is queued on a worker.
            return false;
        }

        foreach (var worker in Workers)
        {
            if (worker.Queue.Count > 0 || worker.Spawns.Count > 0 || worker.HasInbound)
            {
                return true;
            }
        }

        return false;
    }
}
