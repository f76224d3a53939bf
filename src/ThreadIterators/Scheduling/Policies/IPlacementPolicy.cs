namespace ThreadIterators;

/// <summary>
/// Every decision a <see cref="SchedulingPolicy"/> makes, in one place per policy: where a thread goes when it is
/// spawned, woken (by a waker that stops, or one that goes on running), gives up its turn, or overflows a full run
/// queue; whether idle workers steal; whether a worker spins for its own work alone; and what a turn does to a
/// thread's home. Everything else (turns, budgets, parking idle workers) is the worker's and the same under every
/// policy.
/// </summary>
/// <remarks>
/// <para>
/// Each method is called with the worker of this scheduler the calling OS thread is, or null for any other OS thread
/// (plain code, the timer thread, another scheduler's worker); a non-null worker is always the caller's own, so a
/// policy may touch its run-next slot and local queue.
/// </para>
/// <para>
/// The scheduler and its workers call a policy through <see cref="Placement"/>, which calls the default policy
/// through its own sealed type and the others through this interface.
/// </para>
/// </remarks>
internal interface IPlacementPolicy
{
    /// <summary>Gets a value indicating whether idle workers take queued threads from other workers.</summary>
    bool Steals { get; }

    /// <summary>
    /// Gets a value indicating whether threads never leave their home worker. Each worker then waits for its own
    /// work alone: it spins for it without taking the scheduler's single spinning slot, since no other worker
    /// could run what arrives for it.
    /// </summary>
    bool Pins { get; }

    /// <summary>Gets the home worker index of a thread about to be spawned with <paramref name="id"/>.</summary>
    int HomeOf(long id, Worker? spawner);

    /// <summary>Queues a newly spawned thread.</summary>
    void Spawned(GreenThread thread, Worker? spawner);

    /// <summary>Queues a thread whose event completed; the waker stops soon (a send, then a park).</summary>
    void Woken(GreenThread thread, Worker? waker);

    /// <summary>
    /// Queues a thread whose event completed, for a waker that goes on running (a receiver releasing senders, a
    /// credit release, both sides of pull): running it next on the waker would leave it waiting for the waker's turn
    /// to end while another worker could run it.
    /// </summary>
    void WokenAlongside(GreenThread thread, Worker? waker);

    /// <summary>Queues a thread that gave up its turn (yielded, or used up its step budget) on <paramref name="worker"/>.</summary>
    void Yielded(GreenThread thread, Worker worker);

    /// <summary>
    /// Takes one of the threads moved out of <paramref name="worker"/>'s full run queue; <paramref name="wake"/> is set
    /// on the last of a batch, whose placement should wake a worker if one may run them.
    /// </summary>
    void Overflowed(GreenThread thread, Worker worker, bool wake);

    /// <summary>
    /// Called as <paramref name="worker"/> starts a turn of <paramref name="thread"/>: a policy may move the thread's
    /// home there, and may ask for this turn's first step to be weighed by returning its start
    /// (<see cref="System.Diagnostics.Stopwatch.GetTimestamp"/>); 0 asks for nothing.
    /// </summary>
    long TurnStarting(GreenThread thread, Worker worker);

    /// <summary>Takes the weight of a step that <see cref="TurnStarting"/> asked for: it took <paramref name="ticks"/>. Before the thread parks, on its worker.</summary>
    void Weighed(GreenThread thread, long ticks);
}
