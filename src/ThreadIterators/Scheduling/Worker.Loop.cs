using System;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

// The worker's run loop: finding a thread, running its turn, spinning, stealing and parking. The worker's own OS
// thread only (Steal also takes from another worker's inbound queue, which any thread may).
internal sealed partial class Worker
{
    private void Main()
    {
        OsThreadContext.SetCurrent(Context);
        try
        {
            while (!Scheduler.IsStopping)
            {
                var thread = FindRunnable() ?? Idle();
                if (thread is null)
                {
                    continue;
                }

                RunTurn(thread);
            }
        }
        finally
        {
            OsThreadContext.SetCurrent(null);
        }
    }

    private GreenThread? TakeInbound() => _inbound.TryDequeue(out var thread) ? thread : null;

    /// <summary>Finds a runnable thread on this worker or in the inject queue, without stealing.</summary>
    private GreenThread? FindRunnable()
    {
        GreenThread? thread;
        if (++_turns == InjectInterval)
        {
            _turns = 0;
            if ((thread = TakeInbound() ?? Scheduler.TakeInjected()) is not null)
            {
                return thread;
            }
        }

        if ((thread = _runNext) is not null)
        {
            _runNext = null;
            if (++_runNextStreak <= RunNextCap || Queue.Count == 0)
            {
                // With nothing queued behind it there is nobody to be fair to; queueing it would only wake an idle
                // worker to steal it, moving a one-token ring to the other core every few hops.
                return thread;
            }

            // Let the queue have a turn; the run-next thread waits behind it.
            PushLocal(thread);
        }

        _runNextStreak = 0;
        return Queue.Pop() ?? TakeInbound() ?? Scheduler.TakeInjected();
    }

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

    /// <summary>After an event returned <paramref name="outcome"/>: unless it parked the thread, this worker goes on running it.</summary>
    [Conditional("DEBUG")]
    private void AssertGoesOnRunning(GreenThread thread, EventOutcome outcome)
    {
        if (outcome != EventOutcome.Parked)
        {
            thread.AssertStillRunning(this);
        }
    }

    /// <summary>Runs one turn of a green thread: resumes it from its event, then steps its body until it parks, ends, or uses up its budget.</summary>
    private void RunTurn(GreenThread thread)
    {
        var body = thread.Body;
        if (body is null)
        {
            // Ended while a wake-up was on its way: a send that found its receiver parked as the scheduler disposed it.
            return;
        }

        RunningId = thread.Id;
        _turnSends = 0;
        var weighedSince = _workStealing is { } workStealing ? workStealing.TurnStarting(thread, this) : _placement.TurnStarting(thread, this);

        thread.AssertRunning(this);
        try
        {
            var outcome = EventOutcome.Continue;
            if (thread.WaitingOn is { } waitingOn)
            {
                thread.AssertParking(this);
                outcome = waitingOn.Resume(thread, this);
                AssertGoesOnRunning(thread, outcome);
            }

            var budget = StepBudget;
            while (outcome == EventOutcome.Continue)
            {
                if (!body.MoveNext())
                {
                    Scheduler.Exit(thread, fault: null);
                    return;
                }

                var next = body.Current ?? throw new InvalidOperationException($"{thread} yielded null; a green thread must yield an Event, such as mailbox.Recv() or another thread's Exited.");
                if (--budget == 0)
                {
                    // Out of budget: queue the thread before it parks on the event, so it holds no message while queued.
                    thread.WaitingOn = DeferredParkEvent.Instance;
                    thread.AssertParking(this);
                    GiveUpTurn(thread);
                    return;
                }

                // Set before parking: once parked, the thread may resume on another worker at once, which reads it.
                if (thread.WaitingOn != next)
                {
                    thread.WaitingOn = next;
                }

                if (weighedSince != 0)
                {
                    _placement.Weighed(thread, Stopwatch.GetTimestamp() - weighedSince);
                    weighedSince = 0;
                }

                thread.AssertParking(this);
                outcome = next.Park(thread, this);
                AssertGoesOnRunning(thread, outcome);
            }

            if (outcome == EventOutcome.Faulted)
            {
                Scheduler.Exit(thread, thread.PendingFault);
            }
        }
        catch (Exception exception)
        {
            Scheduler.Exit(thread, ExceptionDispatchInfo.Capture(exception));
        }
        finally
        {
            RunningId = 0;
        }
    }
}
