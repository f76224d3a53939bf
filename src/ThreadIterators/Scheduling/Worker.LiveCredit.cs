using System.Threading;

namespace ThreadIterators;

// The worker's share of the scheduler's live-thread count.
internal sealed partial class Worker
{
    /// <summary>
    /// Credit a worker takes from the scheduler's live count at a time. Guessed: large enough that spawn-heavy work
    /// touches the shared count once per this many spawns, small enough that it stays a small error in a reading of
    /// <see cref="Scheduler.LiveThreadCount"/> torn by a spawn.
    /// </summary>
    internal const int LiveBatch = 64;

    // The credit: counts the scheduler holds as live that no thread of this worker's accounts for, taken in batches
    // by spawns and given back by ends on this worker. Owning worker writes; others read it for LiveThreadCount. It
    // lives in Counters (see WorkerCounters.LiveCredit for why).

    /// <summary>What <see cref="LiveCredit"/> reads while the credit moves to or from the scheduler's count.</summary>
    internal const long CreditMoving = long.MinValue;

    /// <summary>
    /// Gets the credit this worker holds, for <see cref="Scheduler.LiveThreadCount"/>, or <see cref="CreditMoving"/>
    /// while it moves: between the two writes the scheduler's count and this credit disagree. Any thread.
    /// </summary>
    internal long LiveCredit => Volatile.Read(ref Counters.LiveCredit);

    /// <summary>
    /// Accounts for a thread this worker spawns. The scheduler's live count is the live threads plus every worker's
    /// credit, so it reaches zero only once every thread has ended and every idle worker has handed its credit back:
    /// <see cref="Scheduler.WaitForAll(System.TimeSpan)"/> wakes exactly then. A spawn and an end on two workers used
    /// to write the same counter with an interlocked operation each; now a worker does so once per
    /// <see cref="LiveBatch"/> spawns or ends.
    /// </summary>
    internal void TakeLiveCredit()
    {
        var credit = Counters.LiveCredit;
        if (credit == 0)
        {
            MoveCredit(LiveBatch - 1, LiveBatch);
            return;
        }

        Volatile.Write(ref Counters.LiveCredit, credit - 1);
    }

    /// <summary>Accounts for a thread that ended on this worker, whichever spawned it.</summary>
    internal void GiveLiveCredit()
    {
        var credit = Counters.LiveCredit + 1;
        if (credit > 2 * LiveBatch)
        {
            // Ends here outnumber spawns (another worker spawns, this one ends): hand a batch back, keeping one,
            // so this cannot be what brings the count to zero while threads of this worker's credit may still end.
            MoveCredit(credit - LiveBatch, -LiveBatch);
            return;
        }

        Volatile.Write(ref Counters.LiveCredit, credit);
    }

    /// <summary>
    /// Hands all credit back, the count perhaps reaching zero: when this worker finds nothing to run, and, from the
    /// disposal once the worker's OS thread has ended, for a worker that stopped holding some.
    /// </summary>
    internal void ReturnAllLiveCredit()
    {
        var credit = Counters.LiveCredit;
        if (credit != 0)
        {
            MoveCredit(0, -credit);
        }
    }

    /// <summary>Adds <paramref name="taken"/> to the scheduler's count (less than zero: hands credit back) and leaves this worker <paramref name="credit"/>.</summary>
    private void MoveCredit(long credit, long taken)
    {
        Volatile.Write(ref Counters.LiveCredit, CreditMoving);
        Scheduler.AddLive(taken);
        Volatile.Write(ref Counters.LiveCredit, credit);
    }
}
