using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;

namespace ThreadIterators.Testing;

// An explored run, step by step. Exploration gives its scheduler this controller through SchedulerOptions.Controller
// (the core's IRunController seam): the scheduler then has one worker whose OS thread never starts, no watchdog, the
// ControlledPolicy, which sends every thread made ready (spawned, woken from any OS thread, yielded) here, and the
// run's VirtualClock as its TimeProvider. The exploring thread runs the worker itself (Worker.RunDrivenHere, a loop of
// its own; the ordinary one is untouched), with no synchronization context, as a worker's OS thread has none, so that a
// task the run completes wakes its thread inside the run.
//   1. Next asks the strategy for the next step: a thread of the ready set; or, under OutsideWork.Anytime, the
//      completion of one of the threads parked on outside work (TakeOutside, step 4's wait); or firing the earliest
//      timer, which moves the virtual time to it.
//   2. The worker runs one turn of the thread with a step budget of 1, so the thread stops at its next yield with the
//      event deferred (DeferredParkEvent), and parks on it only when its next turn starts: every yield is a decision. A
//      Choice with two or more rotating branches asks ChooseBranch which to look at first (one read of
//      Scheduler.Controller per such wait, null outside driven runs).
//   3. TurnEnded records the step as words, folded into an FNV-1a hash, so that a replay can be compared with the run
//      it repeats; the words come from each event's DescribeWait asked ForTrace (WaitDescription), which for task and
//      token events leaves out what other OS threads change, so the hash does not depend on the thread pool's timing.
//      Under Anytime it also keeps a thread that parked on outside work (a task, a token, a channel, or a choice with
//      such a branch) for step 1.
//   4. A wake-up from another OS thread is held apart (Ready with fromOutside), not added to the ready set. With
//      nothing ready and no timer armed (WaitOutside), the run ends if no thread is live; otherwise the strategy picks
//      one of the threads that outside work can wake (the wait-for graph's EndsFromOutside, and any held), and the run
//      waits in real time for that one's wake-up alone, whatever else completes first (TakeOutside, at most
//      OutsideWaitTimeout); with none, it is a deadlock, reported with the wait-for graph.
//   5. Declared outside work (OutsideWork other than Undeclared, SeedsOutsideWork): a task, token or channel event
//      parks even on work already complete (a completed task registers its continuation, a canceled token's callback is
//      queued to the pool, a channel event waits before it reads or writes), so its completion always comes back as a
//      wake-up from outside; and a ChoiceTicket fired from another OS thread is handed here (HoldFire) and fired on the
//      exploring thread when the strategy takes its thread, or dropped if its wait is over by then. Undeclared,
//      reaching step 4 with a thread waiting on outside work fails the run (UndeclaredOutsideWork), and so does a
//      wake-up from another OS thread out of a wait the run could have ended itself (a mailbox receive).
//   6. The run ends when no thread is live, at the first failure, or past MaxSteps. Faults that nothing observed are
//      reported by the scheduler's disposal at the end of the run, and fail it.

/// <summary>
/// Runs one explored run's scheduling: the ready set, the strategy's pick of each step, the virtual clock's firings,
/// the bounds, and the end of the run (every thread ended, a fault, a deadlock, the step bound). The scheduler it
/// controls has one worker, which calls <see cref="Next"/> for every turn and <see cref="TurnEnded"/> after it, so
/// each step is one segment of a thread's body between two yields, as atomic as it is on one worker.
/// </summary>
/// <remarks>
/// <see cref="Next"/> and <see cref="TurnEnded"/>: the worker. <see cref="Ready"/>: any thread (a task completing
/// outside). The result members: the exploring thread, once <see cref="Next"/> has returned null.
/// </remarks>
internal sealed class ScheduleController : IRunController
{
    private readonly object _lock = new();

    private readonly List<GreenThread> _ready = [];

    /// <summary>Threads woken from other OS threads, held until the strategy takes them (<see cref="Ready"/>).</summary>
    private readonly List<GreenThread> _outside = [];

    /// <summary>
    /// Under <see cref="OutsideWork.Anytime"/>: threads parked on outside work whose completion the run has not taken,
    /// in the order they parked; the strategy may take one's at any step. Empty otherwise.
    /// </summary>
    private readonly List<GreenThread> _waiting = [];

    /// <summary>Choice branches fired from other OS threads, held until the strategy takes them (<see cref="HoldFire"/>).</summary>
    private readonly List<(GreenThread Thread, ChoiceTicket Ticket)> _fires = [];

    private readonly IScheduleStrategy _strategy;

    private readonly ExplorationOptions _options;

    /// <summary>The last steps, for the report; oldest first once full.</summary>
    private readonly Queue<string> _trace = new();

    private Scheduler? _scheduler;

    private bool _finished;

    private int _steps;

    /// <summary>FNV-1a over every step's words: equal for two runs that made the same decisions with the same outcomes.</summary>
    private ulong _hash = 14695981039346656037UL;

    /// <summary>The event the thread of the running step resumed from, and whether that step had a body event pending.</summary>
    private Event? _resumedFrom;

    internal ScheduleController(IScheduleStrategy strategy, ExplorationOptions options, VirtualClock clock)
    {
        _strategy = strategy;
        _options = options;
        Clock = clock;
        Placement = new ControlledPolicy(this);
    }

    /// <inheritdoc/>
    public IPlacementPolicy Placement { get; }

    /// <summary>Gets the run's time.</summary>
    internal VirtualClock Clock { get; }

    /// <summary>
    /// Gets a value indicating whether the test declared outside work (<see cref="ExplorationOptions.OutsideWork"/>):
    /// then a wait on a task, a token or a channel parks even if already complete, so its completion comes back as a
    /// wake-up from outside, held until the strategy takes it.
    /// </summary>
    public bool SeedsOutsideWork => _options.OutsideWork != OutsideWork.Undeclared;

    /// <summary>Gets what ended the run, once ended.</summary>
    internal ExplorationFailure Failure { get; private set; }

    /// <summary>Gets the exception of a run that ended with one.</summary>
    internal Exception? Exception { get; private set; }

    /// <summary>Gets the failure in words, with the wait-for graph of a deadlock.</summary>
    internal string? Description { get; private set; }

    /// <summary>Gets the steps taken.</summary>
    internal int Steps => _steps;

    /// <summary>Gets the hash of the whole trace.</summary>
    internal ulong TraceHash => _hash;

    /// <summary>Gets the last steps, oldest first.</summary>
    internal IReadOnlyList<string> Trace => [.. _trace];

    /// <summary>Binds the controller to its scheduler, once made.</summary>
    internal void Attach(Scheduler scheduler) => _scheduler = scheduler;

    /// <summary>
    /// Adds a thread made ready. Any thread. One woken from another OS thread (<paramref name="fromOutside"/>) is held
    /// apart until the run, with nothing else to do, picks it (<see cref="WaitOutside"/>): when outside work completes
    /// is real time, so taking its completions only at decisions of the strategy keeps a run repeatable.
    /// </summary>
    internal void Ready(GreenThread thread, bool fromOutside = false)
    {
        lock (_lock)
        {
            if (fromOutside && _options.OutsideWork == OutsideWork.Undeclared && Failure == ExplorationFailure.None && !WaitsOutside(thread.WaitingOn))
            {
                // Woken from another OS thread out of a wait the run could have ended itself (a send from a Task.Run to
                // a mailbox): undeclared outside work, seen only now. A wait on outside work (a task, a token, a
                // channel) is left for the point where only outside work could move the run (WaitOutside), which is
                // reached the same way whenever the wake-up came.
                FailUnderLock(ExplorationFailure.UndeclaredOutsideWork, null, Undeclared(thread, thread.WaitingOn));
            }

            (fromOutside ? _outside : _ready).Add(thread);
            Monitor.PulseAll(_lock);
        }
    }

    /// <summary>
    /// Holds a choice's branch fired from another OS thread, as <see cref="Ready"/> holds a wake-up: the run fires it
    /// when the strategy takes <paramref name="thread"/>'s outside work. A fire for a wait already over is dropped, as
    /// firing it would do nothing. Any thread.
    /// </summary>
    public void HoldFire(GreenThread thread, ChoiceTicket ticket)
    {
        lock (_lock)
        {
            if (ticket.IsOpen)
            {
                _fires.Add((thread, ticket));
                Monitor.PulseAll(_lock);
            }
        }
    }

    /// <summary>
    /// Ends the run with a failure, unless it has failed already. Any thread: an unobserved fault is reported when
    /// the thread's handle is collected or, at the latest, as the run's scheduler is disposed after a run that
    /// otherwise passed, which it then turns into a failure.
    /// </summary>
    internal void Fail(ExplorationFailure failure, Exception? exception, string description)
    {
        lock (_lock)
        {
            if (Failure == ExplorationFailure.None)
            {
                FailUnderLock(failure, exception, description);
            }
        }
    }

    /// <summary>
    /// The worker's next step: a thread to run, after firing any timers the strategy chose or nothing else allowed;
    /// null once the run has ended (the worker then idles until the scheduler is disposed).
    /// </summary>
    public GreenThread? Next()
    {
        while (true)
        {
            GreenThread? pick = null;
            lock (_lock)
            {
                if (_finished)
                {
                    return null;
                }

                if (_steps >= _options.MaxSteps)
                {
                    FailUnderLock(ExplorationFailure.StepBound, null, $"The run took more than {_options.MaxSteps} steps (options.MaxSteps): a livelock, or a test longer than its bound.");
                    return null;
                }

                var timerPending = Clock.AnyPending;

                // A waiting thread woken inside the run (a choice's other branch, a stop) waits on nothing outside now.
                if (_waiting.Count > 0)
                {
                    _waiting.RemoveAll(_ready.Contains);
                }
                if (_ready.Count > 0 || _waiting.Count > 0)
                {
                    var choice = _strategy.Choose(_ready, _waiting, timerPending, _steps + 1);
                    if (choice >= _ready.Count)
                    {
                        // Outside work completes now, before whatever else could run: the run waits for it.
                        _steps++;
                        if (!TakeOutside(_waiting[choice - _ready.Count]))
                        {
                            return null;
                        }

                        continue;
                    }

                    if (choice >= 0)
                    {
                        pick = _ready[choice];
                        _ready.RemoveAt(choice);
                    }
                }
                else if (!timerPending)
                {
                    if (!WaitOutside())
                    {
                        return null;
                    }

                    // Something outside made a thread ready (or armed a timer): decide again.
                    continue;
                }

                _steps++;
            }

            if (pick is null)
            {
                if (Clock.FireEarliest() is { } at)
                {
                    Record($"{_steps}. time moves to {at}");
                }

                continue;
            }

            _resumedFrom = pick.WaitingOn is DeferredParkEvent ? pick.Body?.Current : pick.WaitingOn;
            return pick;
        }
    }

    /// <summary>Picks the branch a choice looks at first (<see cref="Choice"/>); the worker, inside a step.</summary>
    public int ChooseBranch(int count) => _strategy.ChooseBranch(count);

    /// <summary>Records the step that just ran on the worker: what the thread resumed from, what it got, and where it stopped.</summary>
    public void TurnEnded(GreenThread thread)
    {
        var advanced = thread.IsCompleted || thread.WaitingOn is DeferredParkEvent;
        if (!advanced && _options.OutsideWork == OutsideWork.Anytime && WaitsOutside(thread.WaitingOn))
        {
            lock (_lock)
            {
                _waiting.Add(thread);
            }
        }

        // Each event in the words it gives a trace (WaitDescription.ForTrace), and what a wait that completed gave.
        var from = "starts";
        if (_resumedFrom is not null)
        {
            var resumed = WaitDescription.Traced(_resumedFrom, completed: advanced);
            from = advanced ? $"{resumed.TraceText}{resumed.Result}" : $"parks on {resumed.TraceText}";
        }

        var to = thread.IsCompleted ? ", then ends" : advanced ? $", then yields {(thread.Body?.Current is { } next ? WaitDescription.TraceOf(next) : null)}" : string.Empty;
        Record($"{_steps}. {thread}: {from}{to}");
        if (advanced && !thread.IsCompleted && thread.Body?.Current is YieldEvent)
        {
            _strategy.Yielded(thread);
        }
    }

    /// <summary>
    /// With no thread ready and no timer armed: ends the run if every thread has ended, or takes one wake-up from work
    /// outside the scheduler if a thread waits on some, or ends it as a deadlock. True if a thread became ready.
    /// Under the lock.
    /// </summary>
    private bool WaitOutside()
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The run's outside wake-ups are read, and the run may end, without the controller's lock.");
        var scheduler = _scheduler!;
        if (scheduler.LiveThreadCount == 0)
        {
            Finish();
            return false;
        }

        // The threads that outside work can wake, in id order: those the graph shows waiting on a task, a token or a
        // channel, and any already woken from another OS thread. The strategy picks one; the run waits, in real
        // time, for that one's wake-up alone, whatever else completes first.
        var graph = scheduler.GetWaitGraph();
        var candidates = graph.Threads.Where(static t => t.EndsFromOutside).Select(static t => t.Thread).Union(_outside).OrderBy(static t => t.Id).ToList();
        if (candidates.Count == 0)
        {
            FailUnderLock(ExplorationFailure.Deadlock, null, $"Deadlock: no thread can run, no timer is pending and nothing outside the scheduler is awaited.{Environment.NewLine}{graph}");
            return false;
        }

        if (_options.OutsideWork == OutsideWork.Undeclared)
        {
            // Only outside work could move the run now, and the test did not declare any: when it completes is not the
            // run's to decide. (A task the run itself completes, a TimeProvider delay on its virtual clock, never gets
            // here: its completion wakes its thread on this OS thread.)
            FailUnderLock(ExplorationFailure.UndeclaredOutsideWork, null, Undeclared(candidates[0], candidates[0].WaitingOn));
            return false;
        }

        return TakeOutside(candidates[_strategy.ChooseBranch(candidates.Count)]);
    }

    /// <summary>
    /// Waits, in real time, for the completion of the outside work <paramref name="target"/> waits on, whatever else
    /// completes first, and takes it: the thread becomes ready (or its choice's branch is fired). False, with the run
    /// failed, if it does not come within the timeout. Under the lock.
    /// </summary>
    private bool TakeOutside(GreenThread target)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The run's waiting threads, held fires and outside wake-ups are taken without the controller's lock, which its wait also needs.");
        _waiting.Remove(target);
        var scheduler = _scheduler!;
        var deadline = DateTime.UtcNow + _options.OutsideWaitTimeout;
        int fire;
        while ((fire = LiveFireOf(target)) < 0 && !_outside.Contains(target))
        {
            var left = deadline - DateTime.UtcNow;
            if (left <= TimeSpan.Zero || !Monitor.Wait(_lock, left))
            {
                if (LiveFireOf(target) >= 0 || _outside.Contains(target))
                {
                    continue;
                }

                FailUnderLock(ExplorationFailure.OutsideWait, null, $"{target} waited on work outside the scheduler, which did not complete within {_options.OutsideWaitTimeout} (options.OutsideWaitTimeout).{Environment.NewLine}{scheduler.GetWaitGraph()}");
                return false;
            }
        }

        Record($"{_steps}. {target} is woken by work outside the scheduler");
        if (fire >= 0)
        {
            // Fired here, on the run's own OS thread: the choice takes the branch and the thread comes back through
            // Ready as any wake-up inside the run does (the lock is re-entered).
            var ticket = _fires[fire].Ticket;
            _fires.RemoveAt(fire);
            ticket.Fire();
            return true;
        }

        _outside.Remove(target);
        _ready.Add(target);
        return true;
    }

    /// <summary>The index of a held fire for <paramref name="thread"/>'s current wait, or -1; drops fires for waits already over. Under the lock.</summary>
    private int LiveFireOf(GreenThread thread)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The run's held fires are read and pruned without the controller's lock.");
        _fires.RemoveAll(static f => !f.Ticket.IsOpen);
        return _fires.FindIndex(f => f.Thread == thread);
    }

    /// <summary>What an undeclared-outside-work failure tells the test to do.</summary>
    private const string HowToDeclare = "Declare it (ExplorationOptions.OutsideWork = OutsideWork.WhenIdle, or Anytime) to have its completions taken in an order the seed decides, or give the test a stand-in that completes inside the run (a mailbox, a timer).";

    /// <summary>Whether only work outside the scheduler can end a wait on <paramref name="waitingOn"/> (a task, a token, a channel, or a choice with such a branch).</summary>
    private static bool WaitsOutside(Event? waitingOn)
    {
        var wait = new WaitDescription();
        waitingOn?.DescribeWait(wait);
        return wait.Outside;
    }

    /// <summary>
    /// Words for undeclared outside work: the thread and what it waits for. The same whether the run found the thread
    /// waiting on it with nothing else to do, or its wake-up arrived first.
    /// </summary>
    private static string Undeclared(GreenThread thread, Event? waitingOn)
    {
        var wait = new WaitDescription();
        waitingOn?.DescribeWait(wait);
        var what = wait.Outside ? $"{thread} waits for {wait.Text}" : $"{thread} was woken from another OS thread while it waited for {(waitingOn is null ? "nothing" : wait.Text)}";
        return $"{what}: work outside the scheduler that the run cannot control. {HowToDeclare}";
    }

    /// <summary>Ends the run with a failure. Under the lock.</summary>
    private void FailUnderLock(ExplorationFailure failure, Exception? exception, string description)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The run's failure is written without the controller's lock.");
        Failure = failure;
        Exception = exception;
        Description = description;
        Finish();
    }

    /// <summary>Ends the run: <see cref="Next"/> returns null from now on. Under the lock.</summary>
    private void Finish()
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The run's end is written without the controller's lock.");
        _finished = true;
    }

    private void Record(string step)
    {
        foreach (var c in step)
        {
            _hash = (_hash ^ c) * 1099511628211UL;
        }

        _hash = (_hash ^ '\n') * 1099511628211UL;
        _trace.Enqueue(step);
        if (_trace.Count > _options.TraceLength)
        {
            _trace.Dequeue();
        }
    }
}
