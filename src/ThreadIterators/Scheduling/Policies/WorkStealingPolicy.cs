namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.WorkStealing"/>: a thread is queued on the worker that makes it ready (a woken one in
/// the run-next slot, so the hop stays in cache); from other OS threads it goes to the inject queue.
/// </summary>
/// <remarks>
/// <see cref="Scheduler.Spawn"/> and <see cref="Scheduler.Ready(GreenThread, ThreadContext)"/> do the same without
/// calling this class when the policy is work stealing, the default: on the hop's wake-up and on every spawn the
/// interface call measured 5-11% (ThreadRing on one worker, Skynet).
/// </remarks>
internal sealed class WorkStealingPolicy(Scheduler scheduler) : IPlacementPolicy
{
    public bool Steals => true;

    public bool Pins => false;

    public bool Rehomes => false;

    public int HomeOf(long id, Worker? spawner) => 0;

    public void Spawned(GreenThread thread, Worker? spawner)
    {
        if (spawner is null)
        {
            scheduler.Inject(thread, wake: true);
        }
        else
        {
            spawner.PushLocal(thread);
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

    public void Preempted(GreenThread thread, Worker worker) => worker.PushLocal(thread);
}
