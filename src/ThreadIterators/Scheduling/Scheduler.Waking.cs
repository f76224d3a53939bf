
namespace ThreadIterators;

// Making threads ready and waking workers for them: the wake-up half of the park/wake protocol (see IdleWorkers) and
// the hand-off to the placement policy. Any thread.
public sealed partial class Scheduler
{
    /// <summary>Makes a parked thread runnable, where the policy says (see <see cref="IPlacementPolicy.Woken"/>).</summary>
    internal void Ready(GreenThread thread) => Ready(thread, OsThreadContext.Current);

    /// <summary>As <see cref="Ready(GreenThread)"/>, for a caller that has the calling thread's context at hand.</summary>
    internal void Ready(GreenThread thread, OsThreadContext context)
    {
        thread.AssertQueued("a wake-up");
        var waker = OwnWorker(context);
        if (ThreadIteratorsEventSource.Log.SchedulingEnabled)
        {
            TraceWake(thread, waker);
        }

        Placement.Woken(thread, waker);
    }

    /// <summary>
    /// Makes a parked thread runnable for a waker that goes on running: a receiver releasing senders that wait for
    /// room, a sender waking a receiver of a shared mailbox (see <see cref="IPlacementPolicy.WokenAlongside"/>).
    /// </summary>
    internal void ReadyAlongside(GreenThread thread)
    {
        thread.AssertQueued("a wake-up alongside its waker");
        var waker = OwnWorker(OsThreadContext.Current);
        if (ThreadIteratorsEventSource.Log.SchedulingEnabled)
        {
            TraceWake(thread, waker);
        }

        Placement.WokenAlongside(thread, waker);
    }

    /// <summary>Writes a wake-up to the event source. Before the placement: once placed, the thread may run and park again.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void TraceWake(GreenThread thread, Worker? waker) => ThreadIteratorsEventSource.Log.ThreadWake(Number, thread.Id, waker?.Index ?? -1);

    /// <summary>Gets the worker the calling OS thread is if it is one of this scheduler's, else null.</summary>
    private Worker? OwnWorker(OsThreadContext context) => context.Worker is { } worker && worker.Scheduler == this ? worker : null;

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
