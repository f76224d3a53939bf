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
        if ((thread = Queue.Pop() ?? TakeInbound() ?? Scheduler.TakeInjected() ?? Steal()) is not null || Scheduler.IsStopping)
        {
            Scheduler.Idle.Unlist(this);
            return thread;
        }

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
            if ((ownWorkOnly ? TakeInbound() : TakeInbound() ?? Steal() ?? Scheduler.TakeInjected()) is { } thread)
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
            if (victim != this && (victim.Queue.StealInto(Queue) ?? victim.TakeInbound()) is { } thread)
            {
                return thread;
            }
        }

        return null;
    }
}
