namespace ThreadIterators;

/// <summary>
/// The decisions a <see cref="SchedulingPolicy"/> makes: where a ready thread is queued, whether idle workers take
/// threads from other workers, and whether a thread's home follows it. Everything else (turns, budgets, parking
/// idle workers) is the worker's and the same under every policy.
/// </summary>
/// <remarks>
/// Each method is called with the worker of this scheduler the calling OS thread is, or null for any other OS thread
/// (plain code, the timer thread, another scheduler's worker).
/// </remarks>
internal interface IPlacementPolicy
{
    /// <summary>Gets a value indicating whether idle workers take queued threads from other workers.</summary>
    bool Steals { get; }

    /// <summary>Gets a value indicating whether a thread's <see cref="GreenThread.Home"/> becomes each worker that runs it, and threads are weighed (<see cref="GreenThread.IsHeavy"/>).</summary>
    bool Rehomes { get; }

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

    /// <summary>Queues a thread whose event completed.</summary>
    void Woken(GreenThread thread, Worker? waker);

    /// <summary>Queues a thread that gave up its turn (yielded, or used up its step budget) on <paramref name="worker"/>.</summary>
    void Preempted(GreenThread thread, Worker worker);
}
