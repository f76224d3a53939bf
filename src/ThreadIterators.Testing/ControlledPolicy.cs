namespace ThreadIterators.Testing;

/// <summary>
/// The placement of an explored run: every thread made ready, by a spawn, a wake-up or a yield, goes to the
/// controller, where the run's strategy picks the next to run.
/// </summary>
/// <remarks>
/// Any thread, as <see cref="IPlacementPolicy"/> says: it keeps no state of its own, and the controller takes what it
/// is given under its lock. A wake-up from a thread that is not the run's worker comes with a null worker.
/// </remarks>
internal sealed class ControlledPolicy(ScheduleController controller) : IPlacementPolicy
{
    public bool Steals => false;

    public bool Pins => false;

    public int HomeOf(long id, Worker? spawner) => 0;

    public void Spawned(GreenThread thread, Worker? spawner) => controller.Ready(thread);

    // A wake-up from another OS thread (a task completing, a send from plain code) is held by the controller until
    // the run's strategy takes it, so that outside work completes in a seeded order.
    public void Woken(GreenThread thread, Worker? waker) => controller.Ready(thread, fromOutside: waker is null);

    public void WokenAlongside(GreenThread thread, Worker? waker) => controller.Ready(thread, fromOutside: waker is null);

    public void Yielded(GreenThread thread, Worker worker) => controller.Ready(thread);

    public void Overflowed(GreenThread thread, Worker worker, bool wake) => controller.Ready(thread);

    public long TurnStarting(GreenThread thread, Worker worker) => 0;

    public void Weighed(GreenThread thread, long ticks)
    {
    }
}
