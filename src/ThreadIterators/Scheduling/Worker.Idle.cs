using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

// What crosses between this worker and other OS threads: threads queued for it from elsewhere, its overflow, other
// workers stealing from it, and its own idling (spin, then park; the steps are IdleWorkers'). PushRemote and Unpark:
// any thread. The rest: this worker's own OS thread (Steal also takes from another worker's inbound queue).
internal sealed partial class Worker
{
    /// <summary>Wakes the worker if it is parked, or makes its next park return at once.</summary>
    internal void Unpark() => _parker.Set();

    /// <summary>
    /// Queues a thread for this worker from another OS thread (or from this one, for threads it does not run next),
    /// and wakes this worker if it is parked; otherwise, if the policy steals, an idle worker may take it.
    /// </summary>
    internal void PushRemote(GreenThread thread)
    {
        // The enqueue is an interlocked operation: the store-load fence between publishing the thread and reading
        // the parked flag, which the worker sets (with a fence) before it looks at this queue a last time.
        _inbound.Enqueue(thread);
        if (IsListedIdle)
        {
            Scheduler.WakeWorker(this);
        }
        else if (_steals)
        {
            Scheduler.WakeIdleWorker();
        }
    }

    /// <summary>
    /// Takes this worker's run-next thread from another OS thread (the watchdog), if the worker is still in turn
    /// <paramref name="turn"/>: a thread woken by a turn that then ran on for long, or blocked, would otherwise wait for
    /// that turn to end while other workers idle. Returns null if the slot is empty or the worker moved on.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The slot is the hop's fast path, so its owner touches it with plain loads and stores. The thief makes that
    /// safe with an asymmetric handshake (Dekker's, with the expensive fence on the rare side only):
    /// </para>
    /// <list type="number">
    /// <item>The thief counts itself in <see cref="_runNextThieves"/> (an interlocked increment).</item>
    /// <item>It passes a process-wide barrier (<see cref="Interlocked.MemoryBarrierProcessWide"/>): every store the
    /// owner made before it is now visible, and every load the owner makes after it sees the thief counted.</item>
    /// <item>It reads the owner's announcements: <see cref="_runNextBusy"/> (inside <see cref="PushRunNext"/>), the
    /// running id (0 between turns, where <see cref="TakeRunNext"/> runs), then the turn count. If the owner is busy
    /// with the slot, between turns, or past turn <paramref name="turn"/>, the thief gives up.</item>
    /// <item>Otherwise the owner announced nothing before the barrier, so it will see the thief counted before it next
    /// touches the slot, and then use interlocked operations; the thief takes the slot with an exchange.</item>
    /// </list>
    /// <para>The owner announces with a volatile store and then reads the count with a volatile load.</para>
    /// </remarks>
    internal GreenThread? StealRunNext(int turn)
    {
        if (Volatile.Read(ref _runNext) is null)
        {
            return null;
        }

        Interlocked.Increment(ref _runNextThieves);
        try
        {
            Interlocked.MemoryBarrierProcessWide();

            // Id before turn count: the owner writes them in the other order as a turn starts, so an id of a later
            // turn read here comes with that later turn's count.
            if (Volatile.Read(ref _runNextBusy) != 0 || Volatile.Read(ref _runningId) == 0 || Volatile.Read(ref _turnCount) != turn)
            {
                return null;
            }

            return Interlocked.Exchange(ref _runNext, null);
        }
        finally
        {
            Interlocked.Decrement(ref _runNextThieves);
        }
    }

    /// <summary>Takes the half of a full local queue that <see cref="LocalRunQueue.Push"/> moves out. Owning worker only.</summary>
    internal void Overflow(GreenThread thread, bool wake) => _placement.Overflowed(thread, this, wake);

    /// <summary>Queues a thread in this worker's inbound queue without waking anybody. Owning worker only.</summary>
    internal void PushInbound(GreenThread thread) => _inbound.Enqueue(thread);

    /// <summary>
    /// Runs the idle protocol: spin looking for work, then park. Returns a thread found on the way, or null to make
    /// the caller look again (after a wake-up, or when stopping).
    /// </summary>
    private GreenThread? Idle()
    {
        // Nothing to run here: what this worker holds of the live count goes back, so the count can reach zero
        // (see TakeLiveCredit).
        ReturnAllLiveCredit();
        Scheduler.WorkerIdle(this);

        // The steps are IdleWorkers' park protocol.
        GreenThread? thread;
        if (_pins)
        {
            // Step 1, alone: no other worker could run what arrives for this one, so it needs no spinning slot.
            if ((thread = Spin(ownWorkOnly: true)) is not null)
            {
                return thread;
            }
        }
        else if (Scheduler.Idle.TryBeginSpinning())
        {
            thread = Spin(ownWorkOnly: false);
            Scheduler.EndSpinning(foundWork: thread is not null);
            if (thread is not null)
            {
                return thread;
            }
        }

        // Steps 2 to 5: a thread made ready before the listing is found by the last look, and one made ready after
        // it wakes this or another worker.
        _parker.Reset();
        Scheduler.Idle.List(this);
        if ((thread = Queue.Pop() ?? Spawns.TryPop() ?? TakeInbound() ?? Scheduler.TakeInjected() ?? Scheduler.TakeOverflowed() ?? Steal()) is not null || Scheduler.IsStopping)
        {
            Scheduler.Idle.Unlist(this);
            return thread;
        }

        Counters.Parks++;
        _parker.Wait();
        return null;
    }

    /// <summary>
    /// Spins for <see cref="Scheduler.SpinDuration"/>, and at least <see cref="MinSpinRounds"/> rounds, looking for a
    /// thread: in this worker's inbound queue only, under a policy that pins threads, else also by stealing and in
    /// the inject queue.
    /// </summary>
    private GreenThread? Spin(bool ownWorkOnly)
    {
        var start = Stopwatch.GetTimestamp();
        var rounds = 0;
        do
        {
            if ((ownWorkOnly ? TakeInbound() : TakeInbound() ?? Steal() ?? TakeInjectedBatch() ?? Scheduler.TakeOverflowed()) is { } thread)
            {
                return thread;
            }

            Thread.SpinWait(SpinIterations);
            rounds++;
        }
        while (!Scheduler.IsStopping && (rounds < MinSpinRounds || Stopwatch.GetElapsedTime(start) < Scheduler.SpinDuration));

        return null;
    }

    /// <summary>
    /// Steals about half the local queue of another worker, starting from a random one, or else one thread from
    /// its inbound queue; nothing under a policy that does not steal.
    /// </summary>
    private GreenThread? Steal()
    {
        var workers = Scheduler.Workers;
        var count = workers.Length;
        if (count == 1 || !_steals)
        {
            return null;
        }

        _random ^= _random << 13;
        _random ^= _random >> 17;
        _random ^= _random << 5;
        var start = (int)(_random % (uint)count);
        for (var i = 0; i < count; i++)
        {
            var victim = workers[(start + i) % count];
            if (victim != this && (victim.Queue.StealInto(Queue) ?? victim.Spawns.TrySteal() ?? victim.TakeInbound()) is { } thread)
            {
                Counters.Steals++;
                if (ThreadIteratorsEventSource.Log.SchedulingEnabled)
                {
                    ThreadIteratorsEventSource.Log.ThreadSteal(Scheduler.Number, thread.Id, Index);
                }

                return thread;
            }
        }

        return null;
    }
}
