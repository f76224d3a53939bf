namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.SharedQueue"/>: every ready thread goes to the back of the scheduler's one shared
/// queue (the inject queue), which every worker takes from. No run-next slot, no local queues, no stealing.
/// </summary>
/// <remarks>Any thread; it holds no state of its own.</remarks>
internal sealed class SharedQueuePolicy(Scheduler scheduler) : IPlacementPolicy
{
    public bool Steals => false;

    public bool Pins => false;

    public int HomeOf(long id, Worker? spawner) => 0;

    public void Spawned(GreenThread thread, Worker? spawner) => scheduler.Inject(thread, wake: true);

    public void Woken(GreenThread thread, Worker? waker) => scheduler.Inject(thread, wake: true);

    public void WokenAlongside(GreenThread thread, Worker? waker) => scheduler.Inject(thread, wake: true);

    public void Yielded(GreenThread thread, Worker worker) => scheduler.Inject(thread, wake: true);

    /// <summary>Never called in practice: nothing is ever pushed on a local queue under this policy.</summary>
    public void Overflowed(GreenThread thread, Worker worker, bool wake) => scheduler.Inject(thread, wake);

    public long TurnStarting(GreenThread thread, Worker worker) => 0;

    public void Weighed(GreenThread thread, long ticks)
    {
    }
}
