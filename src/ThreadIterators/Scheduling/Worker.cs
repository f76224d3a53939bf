using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// One OS thread of a <see cref="Scheduler"/>: it runs green threads from its run-next slot, its local queue, its
/// inbound queue, the scheduler's inject queue and, when idle and the policy allows, other workers' queues; with
/// nothing to do it spins briefly and parks. Where ready threads go is the policy's decision (<see cref="IPlacementPolicy"/>).
/// </summary>
/// <remarks>
/// Everything except <see cref="Queue"/> (stolen from by other workers), <see cref="PushRemote"/>, the status flags
/// and <see cref="Unpark"/> is touched only by the worker's own OS thread.
/// </remarks>
[SuppressMessage("Reliability", "CA1001:Types that own disposable fields should be disposable", Justification = "The park event holds no kernel handle (it is never waited on through WaitHandle), and a sender on another OS thread may still set it after the scheduler is disposed.")]
internal sealed partial class Worker
{
    /// <summary>Whether this worker's last turn ended with a park; kept only where the process allows the scheduling events (Worker.Turns.cs).</summary>
    private bool _parkedLastTurn;

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
    /// Most consecutive turns taken from <see cref="Spawns"/> before the local queue gets one, so threads that keep
    /// spawning cannot starve the woken and yielding threads queued behind them. Guessed.
    /// </summary>
    internal const int SpawnCap = 32;

    /// <summary>
    /// Sends in one turn after which the turn counts as long: the run-next thread, which no other worker can steal,
    /// moves to the stealable queue, and further wake-ups of the turn go there too. Without it a thread that floods a
    /// mailbox without yielding would keep the receiver it woke from running on an idle worker until the flood ended,
    /// queueing every message. Guessed; one local-queue push per this many sends.
    /// </summary>
    internal const int LongTurnSends = 256;

    /// <summary>
    /// Every this many turns the inject queue and the overflow queue are looked at first, so threads there are not
    /// starved by local ones. Taken from Go (a prime, so it does not fall into step with other periods). The watchdog
    /// adds a time budget (<see cref="LookAtInjectedSoon"/>), for turns too long for a count to bound.
    /// </summary>
    private const int InjectInterval = 61;

    /// <summary>
    /// Most threads a worker takes from the inject queue at once, as Go's <c>globrunqget</c> takes a batch: outside
    /// wake-ups (task completions, timers) can arrive faster than one per look. The first runs at once, the rest are
    /// held (<see cref="_held"/>) and run first, one a turn. Guessed; bounded so one worker does not take them all.
    /// </summary>
    private const int InjectBatch = 32;

    /// <summary>
    /// <see cref="Thread.SpinWait(int)"/> iterations between two looks for work while spinning: a short pause between
    /// reads of the other workers' queue positions, so a spinner does not hammer their cache lines. Guessed.
    /// </summary>
    private const int SpinIterations = 32;

    /// <summary>
    /// Looks a spinner makes even when <see cref="Scheduler.SpinDuration"/> has passed (a preempted spinner's first
    /// timestamp may be stale). Guessed.
    /// </summary>
    private const int MinSpinRounds = 8;

    /// <summary>
    /// Thread ids a worker takes from the scheduler at once, so spawning on two workers touches the shared counter
    /// once per block rather than per spawn; the registry stripes threads by block. Guessed.
    /// </summary>
    internal const int IdBlock = 1024;

    /// <summary>Wakes the worker when parked. Set by wakers, reset by the worker.</summary>
    private readonly ManualResetEventSlim _parker = new(false, 0);

    /// <summary>The OS thread.</summary>
    private readonly Thread _thread;

    /// <summary>The scheduler's placement policy (<see cref="Scheduler.Placement"/>), held here so a turn reads it from the worker's own fields.</summary>
    private readonly Placement _placement;


    /// <summary>The controller of a driven run, which picks every turn; null for an ordinary scheduler.</summary>
    private readonly IRunController? _controller;

    /// <summary>The policy's <see cref="IPlacementPolicy.Steals"/>, read on every local push.</summary>
    private readonly bool _steals;

    /// <summary>The policy's <see cref="IPlacementPolicy.Pins"/>.</summary>
    private readonly bool _pins;

    /// <summary>
    /// Threads other OS threads made ready for this worker, under the policies that send a thread to its home. Any
    /// thread enqueues; this worker dequeues, and so do stealers when the policy steals.
    /// </summary>
    private readonly ConcurrentQueue<GreenThread> _inbound = new();

    /// <summary>Flags other OS threads read, on a cache line of their own.</summary>
    private WorkerStatus _status;

    /// <summary>The thread a wake-up on this worker made ready last; runs next, unless <see cref="RunNextCap"/> is reached. Not stealable.</summary>
    private GreenThread? _runNext;

    /// <summary>Consecutive turns taken from <see cref="_runNext"/>.</summary>
    private int _runNextStreak;

    /// <summary>Consecutive turns taken from <see cref="Spawns"/>.</summary>
    private int _spawnStreak;

    /// <summary>
    /// The value of <see cref="WorkerCounters.Sent"/> at which the running turn becomes long: its value when the turn
    /// started, plus <see cref="LongTurnSends"/>. One count serves both the long-turn rule and the meter, so the meter
    /// adds nothing to a send.
    /// </summary>
    private long _longTurnAt;

    /// <summary>The last id this worker handed out from its block. Owning worker only.</summary>
    private long _nextId;

    /// <summary>The last id of this worker's block. Owning worker only.</summary>
    private long _idLimit;

    /// <summary>The id of the green thread this worker is running, or 0 between turns (see <see cref="RunningId"/>).</summary>
    private long _runningId;

    /// <summary>
    /// Turns taken since the inject queue was last looked at first, for <see cref="InjectInterval"/>. The watchdog may
    /// set it too (<see cref="LookAtInjectedSoon"/>); a write of its lost to this worker's increment is retried at its
    /// next tick.
    /// </summary>
    private int _turns;

    /// <summary>
    /// Threads of the last inject batch, run one a turn before anything else, in the order they were woken
    /// (<see cref="TakeHeld"/>); <see cref="_heldNext"/> to <see cref="_heldCount"/> are still to run. Owning worker only.
    /// </summary>
    private readonly GreenThread?[] _held = new GreenThread?[InjectBatch - 1];

    /// <summary>The next of <see cref="_held"/> to run.</summary>
    private int _heldNext;

    /// <summary>How many of <see cref="_held"/> the last batch filled.</summary>
    private int _heldCount;

    /// <summary>
    /// Turns started, ever (wrapping). Written by this worker as each turn starts, read by the watchdog, which tells
    /// one long turn from many short ones by it.
    /// </summary>
    private int _turnCount;

    /// <summary>
    /// 1 while this worker touches <see cref="_runNext"/> during a turn with plain loads and stores. Half of the
    /// asymmetric handshake with <see cref="StealRunNext"/> (see there): written by this worker only.
    /// </summary>
    private int _runNextBusy;

    /// <summary>
    /// Other OS threads in the middle of <see cref="StealRunNext"/>. While it is not zero, this worker touches
    /// <see cref="_runNext"/> with interlocked operations only.
    /// </summary>
    private int _runNextThieves;

    /// <summary>State of the xorshift generator that picks steal victims.</summary>
    private uint _random;

    /// <summary>What this worker has done, for the meter (<see cref="RuntimeMetrics"/>). Owning worker only; read by the collecting thread.</summary>
    internal WorkerCounters Counters;

    /// <summary>A countdown the policy keeps for this worker (soft affinity: turns until the next weighed one). Owning worker only.</summary>
    internal int TurnsUntilWeighed;

    internal Worker(Scheduler scheduler, int index)
    {
        Scheduler = scheduler;
        Index = index;
        _random = (uint)(index * 2654435761u) | 1;
        Context = new OsThreadContext(this);
        _placement = scheduler.Placement;
        _steals = _placement.Steals;
        _pins = _placement.Pins;
        _controller = scheduler.Controller;
        _thread = new Thread(Main)
        {
            IsBackground = true,
            Name = scheduler.Name is null ? $"ThreadIterators worker {index} of #{scheduler.Number}" : $"ThreadIterators worker {index} of #{scheduler.Number} '{scheduler.Name}'",
        };
    }

    /// <summary>Gets the scheduler this worker belongs to.</summary>
    internal Scheduler Scheduler { get; }

    /// <summary>Gets the worker's position in the scheduler.</summary>
    internal int Index { get; }

    /// <summary>Gets the worker's queue of runnable threads.</summary>
    internal LocalRunQueue Queue { get; } = new();

    /// <summary>Gets the threads this worker spawned and has not run yet, newest first for it, oldest first for thieves.</summary>
    internal SpawnDeque Spawns { get; } = new();

    /// <summary>Gets this worker's context; also its OS thread's <see cref="OsThreadContext.Current"/>.</summary>
    internal OsThreadContext Context { get; }

    /// <summary>Gets the id of the green thread this worker is running, or 0.</summary>
    /// <remarks>
    /// An id rather than a reference: a reference store at the start of every turn passes a GC write barrier, which
    /// made ThreadRing 3 to 5% slower per hop (docs/history.md, "Designs measured and rejected").
    /// </remarks>
    internal long RunningId => Volatile.Read(ref _runningId);

    /// <summary>Gets the number of turns this worker has started (wrapping); the watchdog compares two readings.</summary>
    internal int TurnCount => Volatile.Read(ref _turnCount);

    /// <summary>Gets the green thread this worker is running, if any: a search of the registry by <see cref="RunningId"/>.</summary>
    internal GreenThread? Running => RunningId == 0 ? null : Scheduler.FindLive(RunningId);

    /// <summary>
    /// Gets or sets a value indicating whether the worker is in the scheduler's idle list (<see cref="IdleWorkers"/>):
    /// about to park or parked, and not yet claimed by a waker. Set under that list's lock.
    /// </summary>
    internal bool IsListedIdle
    {
        get => Volatile.Read(ref _status.ListedIdle) != 0;
        set => Volatile.Write(ref _status.ListedIdle, value ? 1 : 0);
    }

    /// <summary>Gets a value indicating whether the inbound queue holds threads; a snapshot.</summary>
    internal bool HasInbound => !_inbound.IsEmpty;

    /// <summary>Gets a description of the green thread this worker is running, for exception messages.</summary>
    internal string RunningDescription => Running?.ToString() ?? "Code on a worker";

    /// <summary>Starts the worker's OS thread; not in a driven run, whose driving thread runs the worker (<see cref="RunDrivenHere"/>).</summary>
    internal void Start()
    {
        if (_controller is null)
        {
            // Without the creator's execution context: a worker holds no activity (nor other async-local) of its own.
            _thread.UnsafeStart();
        }
    }

    /// <summary>Waits for the worker's OS thread to end; nothing to wait for in a driven run.</summary>
    internal void Join()
    {
        if (_controller is null)
        {
            _thread.Join();
        }
    }

    /// <summary>
    /// Keeps a thread this worker spawned in <see cref="Spawns"/>, where it runs before older work (depth first) and
    /// an idle worker may steal it. A full deque moves its older half to the local queue first.
    /// </summary>
    internal void PushSpawned(GreenThread thread)
    {
        if (!Spawns.TryPush(thread))
        {
            for (var i = 0; i < SpawnDeque.Capacity / 2 && Spawns.TrySteal() is { } oldest; i++)
            {
                Queue.Push(oldest, this);
            }

            if (!Spawns.TryPush(thread))
            {
                // Cannot happen (the deque just lost half its threads), but a spawn must never be dropped.
                Queue.Push(thread, this);
            }
        }

        if (_steals)
        {
            // Store-load fence: the push must be visible before the idle count is read (the park/wake protocol).
            Interlocked.MemoryBarrier();
            Scheduler.WakeIdleWorker();
        }
    }

    /// <summary>Appends a runnable thread to this worker's queue, where idle workers may steal it if the policy steals.</summary>
    internal void PushLocal(GreenThread thread)
    {
        Queue.Push(thread, this);
        if (_steals)
        {
            // Store-load fence: the push must be visible before the idle count is read (the waker's steps, IdleWorkers).
            Interlocked.MemoryBarrier();
            Scheduler.WakeIdleWorker();
        }
    }

    /// <summary>
    /// A yield's park (<see cref="Event.Yield"/>, a zero sleep): the thread gives up its turn and is queued again at
    /// once, made ready by its own worker, which the event source hears as the park's wake-up, so that every park has
    /// one. Written before the thread is queued: it may then run elsewhere at once, and park again.
    /// </summary>
    internal void YieldTurn(GreenThread thread)
    {
        if (ThreadIteratorsEventSource.Log.SchedulingEnabled)
        {
            ThreadIteratorsEventSource.Log.ThreadWake(Scheduler.Number, thread.Id, Index);
        }

        GiveUpTurn(thread);
    }

    /// <summary>Queues a thread that gave up its turn on this worker, where the policy says.</summary>
    internal void GiveUpTurn(GreenThread thread)
    {
        thread.AssertQueued("giving up its turn");
        _placement.Yielded(thread, this);
    }

    /// <summary>
    /// Makes the worker's next turn start with a look at the inject queue. The watchdog calls it when threads wait
    /// there: the time budget, at no cost to the hop path, which already counts turns for <see cref="InjectInterval"/>.
    /// </summary>
    internal void LookAtInjectedSoon() => Volatile.Write(ref _turns, InjectInterval - 1);

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

}
