namespace ThreadIterators;

/// <summary>
/// What one worker has done, for the <c>ThreadIterators</c> meter (<see cref="RuntimeMetrics"/>). Written by the
/// worker's own OS thread only, with plain increments and no interlocked operation: on a hop, a send pays nothing (its
/// count is the long-turn rule's), and a receive that parks and resumes one add each. Read from the collecting thread,
/// summed over the workers.
/// </summary>
/// <remarks>
/// A reader may see a count a few increments old, and in a 32-bit process a torn value once in a while; metrics are
/// sampled, and the next reading is right.
/// </remarks>
internal struct WorkerCounters
{
    /// <summary>
    /// Messages sent on this worker: counted as a send starts, taken back if the mailbox refuses it. Also the long-turn
    /// rule's count (<see cref="Worker.LongTurnSends"/>), so the meter adds nothing to a send.
    /// </summary>
    public long Sent;

    /// <summary>Receives on this worker that found their mailbox empty and parked.</summary>
    public long MailboxWaits;

    /// <summary>
    /// Receives that resumed on this worker after a wait (by a message, the completion, a timeout or a stop), and
    /// choices' mailbox branches and async readers this worker's sends woke.
    /// </summary>
    public long WakeUps;

    /// <summary>Threads this worker took from another worker's queues while idle.</summary>
    public long Steals;

    /// <summary>Times this worker, finding nothing to run, parked its OS thread.</summary>
    public long Parks;

    /// <summary>Green threads spawned from this worker.</summary>
    public long Spawned;

    /// <summary>Green threads that ended on this worker, by <see cref="ThreadOutcome"/> (Completed, Faulted, Canceled).</summary>
    public long Completed;

    /// <inheritdoc cref="Completed"/>
    public long Faulted;

    /// <inheritdoc cref="Completed"/>
    public long Canceled;

    /// <summary>Counts a thread's end by its outcome.</summary>
    /// <summary>
    /// Not a count the meter reads: the worker's share of the live count (see <see cref="Worker.TakeLiveCredit"/>).
    /// Kept at the end of the worker with these counts rather than among the worker's own fields, where a new long
    /// moved the hop path's fields and cost ThreadRing about 5% a hop on one worker (a field-placement effect).
    /// </summary>
    public long LiveCredit;

    public void CountEnd(ThreadOutcome outcome)
    {
        switch (outcome)
        {
            case ThreadOutcome.Completed:
                Completed++;
                break;
            case ThreadOutcome.Faulted:
                Faulted++;
                break;
            default:
                Canceled++;
                break;
        }
    }
}
