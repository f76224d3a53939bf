namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.Dedicated"/>: each thread's home is fixed at spawn, round robin by id (ids come in
/// per-worker blocks, so one spawner's threads are spread evenly), and it runs nowhere else. Nothing is stolen.
/// </summary>
internal sealed class DedicatedPolicy(Scheduler scheduler) : IPlacementPolicy
{
    public bool Steals => false;

    public bool Pins => true;

    public bool Rehomes => false;

    public int HomeOf(long id, Worker? spawner) => (int)(id % scheduler.Workers.Length);

    public void Spawned(GreenThread thread, Worker? spawner)
    {
        var home = scheduler.Workers[thread.Home];
        if (home == spawner)
        {
            spawner.PushLocal(thread);
        }
        else
        {
            home.PushRemote(thread);
        }
    }

    public void Woken(GreenThread thread, Worker? waker)
    {
        var home = scheduler.Workers[thread.Home];
        if (home == waker)
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
