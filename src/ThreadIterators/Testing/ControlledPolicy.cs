namespace ThreadIterators;

/// <summary>
/// The placement of an explored run: every thread made ready, by a spawn, a wake-up or a yield, from the worker or
/// from outside, goes to the controller's ready set, where the run's strategy picks the next to run.
/// </summary>
internal sealed class ControlledPolicy(ScheduleController controller) : IPlacementPolicy
{
    public bool Steals => false;

    public bool Pins => false;

    public int HomeOf(long id, Worker? spawner) => 0;

    public void Spawned(GreenThread thread, Worker? spawner) => controller.Ready(thread);

    public void Woken(GreenThread thread, Worker? waker) => controller.Ready(thread);

    public void WokenAlongside(GreenThread thread, Worker? waker) => controller.Ready(thread);

    public void Yielded(GreenThread thread, Worker worker) => controller.Ready(thread);

    public void Overflowed(GreenThread thread, Worker worker, bool wake) => controller.Ready(thread);

    public long TurnStarting(GreenThread thread, Worker worker) => 0;

    public void Weighed(GreenThread thread, long ticks)
    {
    }
}
