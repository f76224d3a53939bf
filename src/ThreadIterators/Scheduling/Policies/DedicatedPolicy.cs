namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.Dedicated"/>: each thread's home is fixed at spawn, round robin by id (ids come in
/// per-worker blocks, so one spawner's threads are spread evenly), and it runs nowhere else. Nothing is stolen, and
/// each worker spins for its own work alone.
/// </summary>
/// <remarks>Any thread; it holds no state of its own.</remarks>
internal sealed class DedicatedPolicy(Scheduler scheduler) : IPlacementPolicy
{
    public bool Steals => false;

    public bool Pins => true;

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

    /// <summary>As any wake-up: the thread may run nowhere but at home, so there is no idle worker to hand it to.</summary>
    public void WokenAlongside(GreenThread thread, Worker? waker) => Woken(thread, waker);

    public void Yielded(GreenThread thread, Worker worker) => worker.PushLocal(thread);

    /// <summary>Stays on its worker: the shared inject queue would let any worker run it.</summary>
    public void Overflowed(GreenThread thread, Worker worker, bool wake) => worker.PushInbound(thread);

    public long TurnStarting(GreenThread thread, Worker worker) => 0;

    public void Weighed(GreenThread thread, long ticks)
    {
    }
}
