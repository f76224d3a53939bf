using System.Threading;

namespace ThreadIterators;

/// <summary>
/// What a scheduler counts apart from its workers' <see cref="WorkerCounters"/>: events that happen off its workers
/// (a spawn from outside, a thread ended by the disposal, the watchdog's rescues and reports) or seldom (restarts,
/// give-ups). Any thread, with interlocked operations; nothing here is on the hop path.
/// </summary>
internal sealed class SchedulerCounters
{
    /// <summary>Threads spawned from OS threads that are not this scheduler's workers.</summary>
    public long Spawned;

    /// <summary>Threads ended off the workers (by the disposal), by outcome.</summary>
    public long Completed;

    /// <inheritdoc cref="Completed"/>
    public long Faulted;

    /// <inheritdoc cref="Completed"/>
    public long Canceled;

    /// <summary>Threads the watchdog took from a stuck worker's run-next slot for the others.</summary>
    public long Steals;

    /// <summary>Restarts made by supervisors whose thread runs on this scheduler.</summary>
    public long Restarts;

    /// <summary>Supervisors on this scheduler that gave up (their restart intensity was exceeded).</summary>
    public long GiveUps;

    /// <summary>Long turns the watchdog reported.</summary>
    public long WatchdogReports;

    /// <summary>The messages-sent value the meter last reported, which it never reports less than (<see cref="RuntimeMetrics"/>).</summary>
    public long SentReported;

    /// <summary>Counts a thread's end by its outcome.</summary>
    public void CountEnd(ThreadOutcome outcome)
    {
        switch (outcome)
        {
            case ThreadOutcome.Completed:
                Interlocked.Increment(ref Completed);
                break;
            case ThreadOutcome.Faulted:
                Interlocked.Increment(ref Faulted);
                break;
            default:
                Interlocked.Increment(ref Canceled);
                break;
        }
    }
}
