namespace ThreadIterators;

/// <summary>
/// Where a <see cref="Scheduler"/> runs a green thread that becomes ready: when it is spawned, when the event it
/// waits for completes, and when it gives up its turn. Measured against each other in docs/scheduling.md.
/// </summary>
public enum SchedulingPolicy
{
    /// <summary>
    /// Work stealing: a thread woken on a worker runs next on that worker, so a message hop stays in that core's
    /// cache; idle workers steal half of a busy worker's queue. The thread goes wherever it is woken.
    /// </summary>
    WorkStealing,

    /// <summary>
    /// Work stealing with soft affinity: a woken thread goes back to the worker it last ran on, unless that worker
    /// has nothing else to do, in which case it runs next on the waking worker. Idle workers steal, and a stolen
    /// thread makes its new worker its home.
    /// </summary>
    SoftAffinity,

    /// <summary>
    /// Dedicated workers: each thread is assigned a worker when spawned (round robin) and only ever runs there.
    /// Nothing is stolen, so a worker may idle while another has a queue.
    /// </summary>
    Dedicated,

    /// <summary>
    /// One ready queue shared by every worker: each ready thread goes to the back of it and the first free worker
    /// takes it. The plain thread pool, kept as a baseline.
    /// </summary>
    SharedQueue,
}
