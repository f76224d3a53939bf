namespace ThreadIterators.Testing;

/// <summary>
/// What an explored run does with work outside the scheduler: a task (a <c>Task.Run</c>, real I/O), a cancellation
/// token or a <c>System.Threading.Channels</c> channel that other OS threads complete, or a send from another OS
/// thread (<see cref="ExplorationOptions.OutsideWork"/>). Work the run completes itself (a green thread's
/// <c>TaskCompletionSource</c>, a delay on the run's TimeProvider) is not outside work.
/// </summary>
public enum OutsideWork
{
    /// <summary>
    /// The test declares none: a run in which only outside work could move on, or a thread woken from another OS
    /// thread, fails with <see cref="ExplorationFailure.UndeclaredOutsideWork"/>, naming the thread and the work.
    /// </summary>
    Undeclared,

    /// <summary>
    /// Every completion from outside is held and taken only when nothing in the run can move, the strategy picking
    /// which waiting thread's comes first; even one that had happened already when its thread yielded. Safe for
    /// outside work that waits on the run itself (a task that reads a channel the run writes).
    /// </summary>
    WhenIdle,

    /// <summary>
    /// As <see cref="WhenIdle"/>, and the strategy may also take a waiting thread's completion at any step, before
    /// work the run could still do, the run waiting for it in real time. Only for outside work that completes on its
    /// own (I/O against another process, a computation on the pool): a completion that waits on the run would stall
    /// it until <see cref="ExplorationOptions.OutsideWaitTimeout"/>.
    /// </summary>
    Anytime,
}
