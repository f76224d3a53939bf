namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.SharedQueue"/>: every ready thread goes to the back of the scheduler's one shared
/// queue (the inject queue), which every worker takes from. No run-next slot, no local queues, no stealing.
/// </summary>
internal sealed class SharedQueuePolicy(Scheduler scheduler) : IPlacementPolicy
{
    public bool Steals => false;

    public bool Pins => false;

    public bool Rehomes => false;

    public int HomeOf(long id, Worker? spawner) => 0;

    public void Spawned(GreenThread thread, Worker? spawner) => scheduler.Inject(thread, wake: true);

    public void Woken(GreenThread thread, Worker? waker) => scheduler.Inject(thread, wake: true);

    public void Preempted(GreenThread thread, Worker worker) => scheduler.Inject(thread, wake: true);
}
