using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

// Finding work and running turns: the worker's loop, the run-next slot (filled by a wake-up on this worker, taken
// next), the order it looks for a runnable thread in, and one turn of a thread. The owning worker only.
//
// The loop (Main; RunDrivenHere in a driven run, whose controller picks every thread), until the scheduler is stopping:
//   1. Find a thread (FindRunnable), without stealing:
//      a. On every InjectInterval-th (61st) call, or the next call after the watchdog found threads waiting there
//         (LookAtInjectedSoon): the next held thread of the last inject batch, else a batch from the inject queue
//         (TakeInjectedBatch: one thread to run; the rest held, to run first, one a call, in order), then the inbound
//         queue, then the overflow queue.
//      b. The run-next slot (TakeRunNext: plain loads and stores unless a thief is counted; the handshake is in the
//         remarks of StealRunNext, Worker.Idle.cs), unless RunNextCap (16) turns in a row have come from it and the
//         local queue holds a thread: the run-next thread then goes to the back of the local queue.
//      c. The spawn deque's newest thread, unless SpawnCap (32) turns in a row have come from it and the local queue
//         holds a thread.
//      d. The local queue, the spawn deque, the inbound queue, a batch from the inject queue, the overflow queue.
//   2. Nothing: run the idle protocol (Idle, in Worker.Idle.cs; the steps are in the remarks of IdleWorkers). It
//      returns a thread it found, or nothing after a wake-up, and the loop looks again.
//   3. Run a turn (RunTurn):
//      a. A thread whose body is gone ended while a wake-up was on its way (a send that found its receiver parked as
//         the scheduler disposed it): skip it.
//      b. Write the turn count, then the running thread's id (both volatile, for the watchdog), mark where the turn's
//         sends make it long (LongTurnSends on), and call the policy's TurnStarting (Placement.cs).
//      c. If the thread waits on an event, Resume it. A thread stopped before its first turn (the only turn with
//         nothing to resume from) ends here, its body never started.
//      d. While the outcome is Continue: step the body (MoveNext). At its end, the thread exits (Scheduler.Exit). A
//         null yield throws. On the budget's last step (StepBudget, 64; 1 in a driven run), a stopped thread whose
//         last event's result the body already has ends at this yield (another stopped thread parks as at any yield);
//         any other sets WaitingOn to DeferredParkEvent and gives up its turn (GiveUpTurn, the policy's
//         Yielded), to park on the yielded event at the start of its next turn. Otherwise set WaitingOn to the yielded
//         event (before the park: once parked, the thread may resume on another worker, which reads it), hand the
//         policy a weighed step if it asked for one (Weighed), and call the event's Park.
//      e. Parked ends the turn, after one look for a stop (the header of GreenThread.cs). Faulted, or an exception from
//         the body or an event, ends the thread with that fault (the header of Scheduler.Ending.cs). Called (a sub-body
//         call; its steps are in the header of CallStack.cs): the thread's body is now its call stack; step that.
// Sends made during a turn are counted (CountSend): the LongTurnSends-th (256th) moves the run-next thread to the local
// queue, and PushRunNext queues later wake-ups there too, so a thread flooding a mailbox without yielding does not keep
// the receiver it woke from an idle worker. A turn is bounded by the step budget, so a worker sees the stopping flag
// between turns. A turn that neither sends much nor ends (a body that computes, spins or blocks its OS thread right
// after a wake-up) is the watchdog's (Watchdog.cs).
internal sealed partial class Worker
{
    /// <summary>
    /// Counts a send made on this worker, as it starts (<see cref="UncountSend"/> takes a refused one back); the send
    /// that makes the turn long releases the run-next thread to the stealable queue.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void CountSend()
    {
        if (++Counters.Sent == _longTurnAt && _runNext is not null
            && Interlocked.Exchange(ref _runNext, null) is { } waiting)
        {
            // Once per long turn, so the exchange (safe against a thief without the handshake) costs nothing that shows.
            PushLocal(waiting);
        }
    }

    /// <summary>Takes back the count of a send the mailbox refused (completed, or full).</summary>
    internal void UncountSend() => Counters.Sent--;

    /// <summary>
    /// Makes a thread woken on this worker run next, keeping the message hop in this core's cache; in a long turn
    /// (see <see cref="LongTurnSends"/>) it is queued instead, where an idle worker can take it.
    /// </summary>
    internal void PushRunNext(GreenThread thread)
    {
        if (Counters.Sent >= _longTurnAt)
        {
            PushLocal(thread);
            return;
        }

        // The owner's half of the handshake with StealRunNext: announce, then look for thieves. The order of these
        // two volatile accesses is what a thief's process-wide barrier relies on.
        Volatile.Write(ref _runNextBusy, 1);
        GreenThread? displaced;
        if (Volatile.Read(ref _runNextThieves) == 0)
        {
            displaced = _runNext;
            _runNext = thread;
        }
        else
        {
            displaced = Interlocked.Exchange(ref _runNext, thread);
        }

        Volatile.Write(ref _runNextBusy, 0);
        if (displaced is not null)
        {
            PushLocal(displaced);
        }
    }

    /// <summary>
    /// Runs a driven run on the calling OS thread, as this worker, one turn of budget 1 for each thread its
    /// <see cref="IRunController"/> picks, until the controller ends it: a run then costs no OS thread of its own, and
    /// every yield is one of the controller's decisions. The driving thread only, once the run's first thread is spawned.
    /// </summary>
    internal void RunDrivenHere()
    {
        var previous = OsThreadContext.Existing;
        OsThreadContext.SetCurrent(Context);

        // Look like a worker's own OS thread, which has no synchronization context: under one (a test framework's),
        // a task completed inside the run would send its continuation to the pool, and its thread's wake-up would
        // come from outside the run.
        var synchronization = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(null);

        // The driving thread's own activity, which the turns replace with each green thread's (Tracing.cs), is its
        // own again after the run.
        var activity = Activity.Current;
        try
        {
            while (_controller!.Next() is { } thread)
            {
                RunTurn(thread, budget: 1);
                if (ThreadIteratorsEventSource.SchedulingEventsAllowed)
                {
                    TraceTurnEnd(thread);
                }

                _controller.TurnEnded(thread);
            }

            // Give back the live-count credit, as an idle worker does, so the count the disposal reads is exact.
            ReturnAllLiveCredit();
        }
        finally
        {
            OsThreadContext.SetCurrent(previous);
            SynchronizationContext.SetSynchronizationContext(synchronization);
            if (Activity.Current != activity)
            {
                Activity.Current = activity;
            }
        }
    }

    private void Main()
    {
        OsThreadContext.SetCurrent(Context);
        Tracing.PrepareThread();
        try
        {
            while (!Scheduler.IsStopping)
            {
                var thread = FindRunnable() ?? Idle();
                if (thread is null)
                {
                    continue;
                }

                RunTurn(thread, StepBudget);
                if (ThreadIteratorsEventSource.SchedulingEventsAllowed)
                {
                    TraceTurnEnd(thread);
                }
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
        if (++_turns >= InjectInterval)
        {
            // Outside wake-ups first: they may have waited behind a whole stream of local work.
            _turns = 0;
            if ((thread = TakeHeld() ?? TakeInjectedBatch() ?? TakeInbound() ?? Scheduler.TakeOverflowed()) is not null)
            {
                return thread;
            }
        }

        if ((thread = TakeRunNext()) is not null)
        {
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
        if (Spawns.Count > 0 && (++_spawnStreak <= SpawnCap || Queue.Count == 0) && Spawns.TryPop() is { } spawned)
        {
            return spawned;
        }

        _spawnStreak = 0;
        return Queue.Pop() ?? Spawns.TryPop() ?? TakeInbound() ?? TakeInjectedBatch() ?? Scheduler.TakeOverflowed();
    }

    /// <summary>
    /// Takes the run-next thread between turns. The end of the previous turn (<see cref="_runningId"/> back to 0) is
    /// this side's announcement in the handshake with <see cref="StealRunNext"/>, which gives up on a worker between turns.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private GreenThread? TakeRunNext()
    {
        var thread = _runNext;
        if (thread is null)
        {
            return null;
        }

        if (Volatile.Read(ref _runNextThieves) == 0)
        {
            _runNext = null;
            return thread;
        }

        return Interlocked.Exchange(ref _runNext, null);
    }

    /// <summary>
    /// Takes a thread from the inject queue to run and, under a policy that steals, up to <see cref="InjectBatch"/> - 1
    /// more, held by this worker (<see cref="_held"/>) to run first, one a turn, in the order they came.
    /// </summary>
    /// <remarks>
    /// Held, not queued locally: behind a local queue over half full a batch pushed there went to the overflow queue
    /// with half the local threads, behind all the others; and taking only one thread a look instead, as this did while
    /// the local queue was over half full, served a burst of 2,000 outside wake-ups behind a busy worker at one look
    /// (61 turns) each, about 120,000 turns for the last
    /// (<c>OutsideWakeUps_ABurstBehindOverflowingLocalLoad_RunWithinTheirBatches</c>). Held whatever the local queue
    /// holds, so that the threads of one worker's batches run in the order they were woken, as they did when every
    /// batch went to the local queue: a batch held behind a half-full queue would overtake the last one queued there.
    /// Idle workers take from the inject queue themselves (an injection wakes one).
    /// </remarks>
    private GreenThread? TakeInjectedBatch()
    {
        var first = Scheduler.TakeInjected();
        if (first is null || !_steals)
        {
            return first;
        }

        Debug.Assert(_heldCount == 0, "A batch was taken from the inject queue while the last one was still held.");
        while (_heldCount < _held.Length && Scheduler.TakeInjected() is { } held)
        {
            _held[_heldCount++] = held;
        }

        if (_heldCount != 0)
        {
            // The next look for work starts with them.
            _turns = InjectInterval - 1;
        }

        return first;
    }

    /// <summary>
    /// Takes the next thread of <see cref="_held"/>, or null if none is left; while more are, the next look for work
    /// comes here again.
    /// </summary>
    private GreenThread? TakeHeld()
    {
        if (_heldNext == _heldCount)
        {
            return null;
        }

        var thread = _held[_heldNext];
        _held[_heldNext++] = null;
        if (_heldNext == _heldCount)
        {
            _heldNext = _heldCount = 0;
        }
        else
        {
            _turns = InjectInterval - 1;
        }

        return thread;
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

    /// <summary>
    /// Writes a park to the event source, after the turn: the thread may already run elsewhere, and the event says only
    /// that it parked here. Called only where the process allows the scheduling events: the park's own flag and this
    /// call cost the hop nothing otherwise.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void TraceTurnEnd(GreenThread thread)
    {
        if (_parkedLastTurn)
        {
            _parkedLastTurn = false;
            if (ThreadIteratorsEventSource.Log.SchedulingEnabled)
            {
                ThreadIteratorsEventSource.Log.ThreadPark(Scheduler.Number, thread.Id, Index);
            }
        }
    }

    /// <summary>
    /// Ends <paramref name="thread"/> if it made a put and did not yield it, and now yields <paramref name="next"/>,
    /// something else: the put's message was never sent, which ends the thread here, before this event does anything.
    /// Checked at the yield, on the thread's own worker: after a park the thread may already run elsewhere and mark its
    /// next put. Out of line, so that the yield pays one load and test of the thread's fault for it.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool EndedByUnyielded(GreenThread thread, Event next)
    {
        if (thread.PendingFault is { SourceException: UnyieldedEventException } mark && next is not IPutYield { IsPutFromPut: true })
        {
            Scheduler.Exit(thread, mark, this);
            return true;
        }

        return false;
    }

    /// <summary>Runs one turn of a green thread: resumes it from its event, then steps its body until it parks, ends, or uses up its budget of <paramref name="budget"/> body steps.</summary>
    private void RunTurn(GreenThread thread, int budget)
    {
        var body = thread.Body;
        if (body is null)
        {
            // Ended while a wake-up was on its way: a send that found its receiver parked as the scheduler disposed it.
            return;
        }

        // The turn count first, then the id: the watchdog reads them in the opposite order (see StealRunNext).
        Volatile.Write(ref _turnCount, _turnCount + 1);
        Volatile.Write(ref _runningId, thread.Id);
        _longTurnAt = Counters.Sent + LongTurnSends;
        var weighedSince = _placement.TurnStarting(thread, this);
        thread.AssertRunning(this);
        try
        {
            // Inside the try: an activity listener that throws faults this thread, not the worker.
            if (Tracing.Seen)
            {
                Tracing.EnterTurn(thread);
            }

            var outcome = EventOutcome.Continue;

            // Set once a stop has let the body have an event's result: its next yield ends it.
            var ending = false;

            if (thread.WaitingOn is { } waitingOn)
            {
                thread.AssertParking(this);
                outcome = waitingOn.Resume(thread, this);
                AssertGoesOnRunning(thread, outcome);
            }
            else if (thread.PendingFault is { } stopped)
            {
                // Stopped before its first turn (the only turn with nothing to resume from): the body never starts.
                Scheduler.Exit(thread, stopped, this);
                return;
            }

        Stepping:
            while (outcome == EventOutcome.Continue)
            {
                if (!body.MoveNext())
                {
                    // A put it made and never yielded: its message was never sent, which ends the thread faulted.
                    Scheduler.Exit(thread, thread.UnyieldedAtEnd, this);
                    return;
                }

                var next = body.Current ?? throw new InvalidOperationException($"{thread} yielded null; a green thread must yield an Event, such as mailbox.Recv() or another thread's Exited.");
                if (thread.PendingFault is not null && EndedByUnyielded(thread, next))
                {
                    return;
                }

                if (--budget == 0)
                {
                    if (thread.PendingFault is not { } stop || GreenThread.IsMarkOf(stop, next))
                    {
                        // Out of budget: queue the thread before it parks on the event, so it holds no message while queued.
                        thread.WaitingOn = DeferredParkEvent.Instance;
                        thread.AssertParking(this);
                        if (Tracing.Seen)
                        {
                            Tracing.Keep(thread, next);
                        }

                        GiveUpTurn(thread);
                        return;
                    }

                    if (ending)
                    {
                        // Stopped, and the last event's result handed to the body: it ends at this yield, before this
                        // event does anything.
                        Scheduler.Exit(thread, stop, this);
                        return;
                    }

                    // Stopped while running, found at the budget's last step: the event parks as at any other yield (a
                    // result already decided for the thread, such as a reply Reply() reported delivered, must reach it).
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
                if (Tracing.Seen)
                {
                    // Before the park: once parked, the thread may be resumed on another worker at once.
                    Tracing.Keep(thread, next);
                }

                outcome = next.Park(thread, this);
                AssertGoesOnRunning(thread, outcome);

                if (outcome == EventOutcome.Continue && thread.PendingFault is not null)
                {
                    // A stop came while the thread ran, and the event completed at once: the body gets its result (a
                    // message taken must not be lost), and the budget's check ends the thread at its next yield.
                    budget = 1;
                    ending = true;
                }
            }

            if (outcome == EventOutcome.Parked)
            {
                if (ThreadIteratorsEventSource.SchedulingEventsAllowed)
                {
                    _parkedLastTurn = true;
                }

                if (thread.PendingFault is { SourceException: not UnyieldedEventException })
                {
                    // Parked, and a stop has come: the one look per park that closes the race with a stop that read the
                    // wait before this park registered (the park's own full fence orders it). The thread may already
                    // run elsewhere; taking back its wait is safe from any thread.
                    thread.InterruptWait();
                }
            }
            else if (outcome == EventOutcome.Faulted)
            {
                Scheduler.Exit(thread, thread.PendingFault, this);
            }
            else
            {
                // Called: a sub-body call put the thread's call stack in place of its body (CallStack.cs); or Delivered:
                // a stopped thread's deferred park completed at once (DeferredParkEvent.cs). Step the body, which is
                // the call stack now if it changed. Checked only here, past the hop's Parked, so the hop pays nothing.
                body = thread.Body!;
                outcome = EventOutcome.Continue;
                if (thread.PendingFault is not null)
                {
                    // As for a Continue above: the body gets its result, and the stop ends the thread at its next yield.
                    budget = 1;
                    ending = true;
                }

                goto Stepping;
            }
        }
        catch (Exception exception)
        {
            Scheduler.Exit(thread, ExceptionDispatchInfo.Capture(exception), this);
        }
        finally
        {
            // Volatile, so it is not moved past the next turn's look for thieves in TakeRunNext.
            Volatile.Write(ref _runningId, 0);
        }
    }
}
