namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.SoftAffinity"/>: a woken thread whose steps take long (see
/// <see cref="Worker.HeavyStep"/>) goes back to its home, the worker it last ran on, where its own state is likely
/// still in cache. Otherwise it runs next on the waking worker, where the message is in cache: a thread that does
/// little with each message (a forwarder, a ping-pong partner) is mostly its message, and sending it home would
/// cost more than the hop. A heavy thread also stays with the message when its home is parked, because waking a
/// parked worker costs microseconds; a home that is spinning for work takes it from its inbound queue at once.
/// Idle workers steal; a thread makes its home wherever it runs.
/// </summary>
internal sealed class SoftAffinityPolicy(Scheduler scheduler) : IPlacementPolicy
{
    public bool Steals => true;

    public bool Pins => false;

    public bool Rehomes => true;

    public int HomeOf(long id, Worker? spawner) => spawner?.Index ?? GreenThread.Homeless;

    public void Spawned(GreenThread thread, Worker? spawner)
    {
        if (spawner is null)
        {
            // Homeless: the first worker free runs it, and the first worker that wakes it becomes its home, so
            // threads started together from outside are not dealt out one by one to alternate workers.
            scheduler.Inject(thread, wake: true);
        }
        else
        {
            spawner.PushLocal(thread);
        }
    }

    public void Woken(GreenThread thread, Worker? waker)
    {
        var index = thread.Home;
        if (index == GreenThread.Homeless)
        {
            if (waker is null)
            {
                scheduler.Inject(thread, wake: true);
                return;
            }

            // The thread is parked, so nothing else writes its home now.
            thread.Home = waker.Index;
            waker.PushRunNext(thread);
            return;
        }

        var home = scheduler.Workers[index];
        if (waker is null)
        {
            home.PushRemote(thread);
        }
        else if (home == waker || !thread.IsHeavy || home.IsListedIdle)
        {
            waker.PushRunNext(thread);
        }
        else
        {
            home.PushRemote(thread);
        }
    }

    public void Preempted(GreenThread thread, Worker worker) => worker.PushLocal(thread);
}
