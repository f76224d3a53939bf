using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// One OS thread of a <see cref="Scheduler"/>: it runs green threads from its run-next slot, its local queue, the
/// scheduler's inject queue and, when idle, other workers' queues; with nothing to do it spins briefly and parks.
/// </summary>
/// <remarks>
/// Everything except <see cref="Queue"/> (stolen from by other workers) and <see cref="Unpark"/> is touched only by
/// the worker's own OS thread.
/// </remarks>
[SuppressMessage("Reliability", "CA1001:Types that own disposable fields should be disposable", Justification = "The park event holds no kernel handle (it is never waited on through WaitHandle), and a sender on another OS thread may still set it after the scheduler is disposed.")]
internal sealed class Worker
{
    /// <summary>
    /// Most body steps (<c>MoveNext</c> calls) in one turn before the thread goes to the back of the queue, so a
    /// thread that never parks cannot starve the others. Guessed; budgets of 16, 64 and 256 measured the same on the
    /// ring (N = 10,000, M = 1,000, one worker: 34.7, 33.3 and 31.9 ns per hop, within run-to-run noise).
    /// </summary>
    internal const int StepBudget = 64;

    /// <summary>
    /// Most consecutive turns taken from the run-next slot before the queue gets a turn; without it two
    /// ping-ponging threads would starve every other thread of the worker. Tokio uses 3; caps of 3, 16 and 64
    /// measured the same on the ring (34.4, 33.3 and 34.5 ns per hop), so this errs towards keeping hops in cache.
    /// </summary>
    internal const int RunNextCap = 16;

    /// <summary>
    /// Sends in one turn after which the turn counts as long: the run-next thread, which no other worker can steal,
    /// moves to the stealable queue, and further wake-ups of the turn go there too. Without it a thread that floods a
    /// mailbox without yielding would keep the receiver it woke from running on an idle worker until the flood ended,
    /// queueing every message. Guessed; one local-queue push per this many sends.
    /// </summary>
    internal const int LongTurnSends = 256;

    /// <summary>Every this many turns the inject queue is looked at first, so injected threads are not starved by local ones (Go uses 61).</summary>
    private const int InjectInterval = 61;

    /// <summary>Thread ids a worker takes from the scheduler at once; the registry stripes threads by block.</summary>
    internal const int IdBlock = 1024;

    /// <summary>Wakes the worker when parked. Set by wakers, reset by the worker.</summary>
    private readonly ManualResetEventSlim _parker = new(false, 0);

    /// <summary>The OS thread.</summary>
    private readonly Thread _thread;

    /// <summary>The thread a wake-up on this worker made ready last; runs next, unless <see cref="RunNextCap"/> is reached. Not stealable.</summary>
    private GreenThread? _runNext;

    /// <summary>Consecutive turns taken from <see cref="_runNext"/>.</summary>
    private int _runNextStreak;

    /// <summary>Sends made by the running turn, up to <see cref="LongTurnSends"/>.</summary>
    private int _turnSends;

    /// <summary>The last id this worker handed out from its block. Owning worker only.</summary>
    private long _nextId;

    /// <summary>The last id of this worker's block. Owning worker only.</summary>
    private long _idLimit;

    /// <summary>Turns taken, for <see cref="InjectInterval"/>.</summary>
    private int _turns;

    /// <summary>State of the xorshift generator that picks steal victims.</summary>
    private uint _random;

    internal Worker(Scheduler scheduler, int index)
    {
        Scheduler = scheduler;
        Index = index;
        _random = (uint)(index * 2654435761u) | 1;
        Context = new ThreadContext(this);
        _thread = new Thread(Main)
        {
            IsBackground = true,
            Name = $"ThreadIterators worker {index}",
        };
    }

    /// <summary>Gets the scheduler this worker belongs to.</summary>
    internal Scheduler Scheduler { get; }

    /// <summary>Gets the worker's position in the scheduler.</summary>
    internal int Index { get; }

    /// <summary>Gets the worker's queue of runnable threads.</summary>
    internal LocalRunQueue Queue { get; } = new();

    /// <summary>Gets this worker's context; also its OS thread's <see cref="ThreadContext.Current"/>.</summary>
    internal ThreadContext Context { get; }

    /// <summary>Gets the green thread this worker is running, if any.</summary>
    /// <remarks>Kept as an id rather than a reference: a reference store costs a GC write barrier on every turn.</remarks>
    internal long RunningId { get; private set; }

    /// <summary>Gets a description of the green thread this worker is running, for exception messages.</summary>
    internal string RunningDescription => RunningId == 0 ? "Code on a worker" : $"GreenThread #{RunningId}";

    internal void Start() => _thread.Start();

    internal void Join() => _thread.Join();

    /// <summary>Wakes the worker if it is parked, or makes its next park return at once.</summary>
    internal void Unpark() => _parker.Set();

    /// <summary>
    /// Makes a thread woken on this worker run next, keeping the message hop in this core's cache; in a long turn
    /// (see <see cref="LongTurnSends"/>) it is queued instead, where an idle worker can take it.
    /// </summary>
    internal void PushRunNext(GreenThread thread)
    {
        if (_turnSends >= LongTurnSends)
        {
            PushLocal(thread);
            return;
        }

        var displaced = _runNext;
        _runNext = thread;
        if (displaced is not null)
        {
            PushLocal(displaced);
        }
    }

    /// <summary>Appends a runnable thread to this worker's queue, where idle workers may steal it.</summary>
    internal void PushLocal(GreenThread thread)
    {
        Queue.Push(thread, Scheduler);

        // Store-load fence: the push must be visible before the idle count is read (see docs/architecture.md, park/wake protocol).
        Interlocked.MemoryBarrier();
        Scheduler.WakeIdleWorker();
    }

    /// <summary>
    /// The id of a thread spawned on this worker. Ids come from the scheduler a block at a time, so spawning on two
    /// workers does not make both write one shared counter per spawn.
    /// </summary>
    internal long NextThreadId()
    {
        if (_nextId == _idLimit)
        {
            _idLimit = Scheduler.ReserveIds(IdBlock);
            _nextId = _idLimit - IdBlock;
        }

        return ++_nextId;
    }

    /// <summary>Counts a send made on this worker; the send that makes the turn long releases the run-next thread to the stealable queue.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void CountSend()
    {
        if (_turnSends < LongTurnSends && ++_turnSends == LongTurnSends && _runNext is { } waiting)
        {
            _runNext = null;
            PushLocal(waiting);
        }
    }

    private void Main()
    {
        ThreadContext.SetCurrent(Context);
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
            ThreadContext.SetCurrent(null);
        }
    }

    /// <summary>Finds a runnable thread on this worker or in the inject queue, without stealing.</summary>
    private GreenThread? FindRunnable()
    {
        GreenThread? thread;
        if (++_turns == InjectInterval)
        {
            _turns = 0;
            if ((thread = Scheduler.TakeInjected()) is not null)
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
        return Queue.Pop() ?? Scheduler.TakeInjected();
    }

    /// <summary>
    /// Runs the idle protocol: spin looking for work, then park. Returns a thread found on the way, or null to make
    /// the caller look again (after a wake-up, or when stopping).
    /// </summary>
    private GreenThread? Idle()
    {
        GreenThread? thread;
        if (Scheduler.TryBeginSpinning())
        {
            var start = Stopwatch.GetTimestamp();
            var rounds = 0;
            do
            {
                if ((thread = Steal() ?? Scheduler.TakeInjected()) is not null)
                {
                    Scheduler.EndSpinning(foundWork: true);
                    return thread;
                }

                Thread.SpinWait(32);
                rounds++;
            }
            while (!Scheduler.IsStopping && (rounds < 8 || Stopwatch.GetElapsedTime(start) < Scheduler.SpinDuration));

            Scheduler.EndSpinning(foundWork: false);
        }

        // Park protocol: announce idleness (a full fence), then look at every queue once more, so that a thread made
        // ready before the announcement is found here and one made ready after it wakes this or another worker.
        _parker.Reset();
        Scheduler.AddIdle(this);
        if ((thread = Queue.Pop() ?? Scheduler.TakeInjected() ?? Steal()) is not null || Scheduler.IsStopping)
        {
            Scheduler.RemoveIdle(this);
            return thread;
        }

        _parker.Wait();
        return null;
    }

    /// <summary>Steals about half the queue of another worker, starting from a random one.</summary>
    private GreenThread? Steal()
    {
        var workers = Scheduler.Workers;
        var count = workers.Length;
        if (count == 1)
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
            if (victim != this && victim.Queue.StealInto(Queue) is { } thread)
            {
                return thread;
            }
        }

        return null;
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
        try
        {
            var outcome = thread.WaitingOn?.Resume(thread, this) ?? EventOutcome.Continue;
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
                    PushLocal(thread);
                    return;
                }

                // Set before parking: once parked, the thread may resume on another worker at once, which reads it.
                if (thread.WaitingOn != next)
                {
                    thread.WaitingOn = next;
                }

                outcome = next.Park(thread, this);
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
