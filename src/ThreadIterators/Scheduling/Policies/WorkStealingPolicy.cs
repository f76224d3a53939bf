namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.WorkStealing"/>, the default: a thread is queued on the worker that makes it ready (a
/// woken one in the run-next slot, so the hop stays in cache; one woken by a waker that goes on running in the
/// stealable local queue; a spawned one in the worker's spawn deque, newest first, so trees of spawns unfold depth
/// first); from other OS threads it goes to the inject queue. Idle workers steal; a full local queue overflows to the
/// scheduler's overflow queue. Threads have no home.
/// </summary>
/// <remarks>Any thread, as <see cref="IPlacementPolicy"/> says; it holds no state of its own.</remarks>
internal sealed class WorkStealingPolicy(Scheduler scheduler) : IPlacementPolicy
{
    public bool Steals => true;

    public bool Pins => false;

    public int HomeOf(long id, Worker? spawner) => 0;

    public void Spawned(GreenThread thread, Worker? spawner)
    {
        if (spawner is null)
        {
            scheduler.Inject(thread, wake: true);
        }
        else
        {
            spawner.PushSpawned(thread);
        }
    }

    public void Woken(GreenThread thread, Worker? waker)
    {
        if (waker is null)
        {
            scheduler.Inject(thread, wake: true);
        }
        else
        {
            waker.PushRunNext(thread);
        }
    }

    public void WokenAlongside(GreenThread thread, Worker? waker)
    {
        if (waker is null)
        {
            scheduler.Inject(thread, wake: true);
        }
        else
        {
            waker.PushLocal(thread);
        }
    }

    public void Yielded(GreenThread thread, Worker worker) => worker.PushLocal(thread);

    public void Overflowed(GreenThread thread, Worker worker, bool wake) => scheduler.Overflow(thread, wake);

    public long TurnStarting(GreenThread thread, Worker worker) => 0;

    public void Weighed(GreenThread thread, long ticks)
    {
    }
}
