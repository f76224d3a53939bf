using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

// Spawning (Spawn; any thread):
//   1. Refuse if the scheduler is stopping (an ObjectDisposedException naming it and the thread).
//   2. Find the caller's own worker, if it is one of this scheduler's (OsThreadContext.Current).
//   3. Take an id: a worker takes them Worker.IdBlock (1,024) at a time (Worker.NextThreadId); other threads take one
//      with an interlocked increment. Ids stay unique, and the first thread spawned is 1, but they do not follow spawn
//      order across workers.
//   4. Ask the policy for the thread's home (HomeOf), and make the GreenThread, calling the body's GetEnumerator once.
//      SpawnReceiver binds its mailbox to the thread here (ISpawnBinding: the mailbox's own bind, its step 1), before
//      the thread is counted, registered or placed: nobody runs it yet, and a refused bind leaves nothing to undo but
//      the enumerator.
//   5. Count it live and register it (ThreadRegistry): on a worker, the count comes from the worker's credit
//      (Worker.LiveCredit.cs) and the thread goes into that worker's log (ThreadLog, no lock: only its worker appends);
//      off the workers, an interlocked increment, and the outside log under its lock.
//   6. Look at the stopping flag again: a disposal that began while the enumerator was being made either took the
//      registry (and disposes this thread too) or did not (then the spawn ends it); either way the spawn throws.
//   7. Place it: the policy's Spawned (the header of Placement.cs). Work stealing keeps a thread spawned on a worker in
//      that worker's spawn deque (SpawnDeque): the worker runs its newest spawn before older work, and idle workers
//      steal the oldest, so a tree of spawns unfolds depth first, a thief taking the root of the largest piece left.
// The live count is the live threads plus every worker's credit: a worker takes Worker.LiveBatch (64) counts at a time
// from the shared count and hands them back when it finds nothing to run; an end on a worker gives one count to that
// worker's credit, and a worker holding more than twice LiveBatch hands a batch back. So the count reaches zero, waking
// WaitForAll and completing WhenAll, only once the last thread has ended and every worker has gone idle. Off the
// workers a spawn and an end (a failed spawn, the disposal's) are an interlocked increment and decrement.
// LiveThreadCount subtracts the credit, reading it on both sides of the count and waiting out credit on its way.
// What a spawn writes is kept off the other workers' cache lines where it can be: the live count and the id source sit
// padded in SpawnCounters, clear of the stopping flag every worker reads each turn; a worker's ids come in blocks; and
// each worker lists its spawns in a log of its own, which an end never writes (ThreadLog). The measurements, against
// the striped lists the logs replaced: docs/benchmarks.md, Skynet.

/// <summary>
/// Runs green threads on a fixed number of OS threads (workers). With one worker every green thread runs on the
/// same OS thread, one at a time, in an order fixed by the program: deterministic coroutines. With more, threads run
/// in parallel, and idle workers steal runnable threads from busy ones.
/// </summary>
/// <remarks>
/// <para>
/// Every member may be used from any thread. Dispose the scheduler to stop its workers; green threads still parked
/// then are disposed, so their <c>finally</c> blocks run.
/// </para>
/// <example>
/// <code>
/// using var scheduler = new Scheduler(workerCount: 2);
/// var inbox = new Mailbox&lt;int&gt;();
/// var consumer = scheduler.Spawn(Sum(inbox, 3));
/// for (var i = 1; i &lt;= 3; i++) inbox.Send(i);
/// consumer.Wait();
///
/// static IEnumerable&lt;Event&gt; Sum(Mailbox&lt;int&gt; inbox, int count)
/// {
///     var total = 0;
///     for (var i = 0; i &lt; count; i++)
///     {
///         var message = inbox.Recv();
///         yield return message;
///         total += message.Value;
///     }
///     Console.WriteLine(total); // 6
/// }
/// </code>
/// </example>
/// </remarks>
[DebuggerDisplay("{DebuggerDisplay,nq}")]
public sealed partial class Scheduler : IDisposable, IAsyncDisposable
{
    /// <summary>
    /// How long an idle worker looks for work before parking. Guessed, after Go, which spins for a similar few tens of
    /// microseconds; not measured here against other durations.
    /// </summary>
    internal static readonly TimeSpan SpinDuration = TimeSpan.FromMicroseconds(50);

    /// <summary>The number the last scheduler made in the process was given: thread ids are per scheduler, so messages name the scheduler too.</summary>
    private static long s_lastNumber;

    /// <summary>
    /// Threads made ready or spawned by OS threads that are not this scheduler's workers (plain code, the timer
    /// thread, task completions), and under the shared-queue policy every ready thread. Workers look here every
    /// few dozen turns, and at once when the watchdog finds threads waiting (see <see cref="Worker.LookAtInjectedSoon"/>).
    /// </summary>
    private readonly ConcurrentQueue<GreenThread> _inject = new();

    /// <summary>
    /// Halves of full local run queues, under the policies that steal. Kept apart from <see cref="_inject"/>: a
    /// broadcast that overflows a run queue moves hundreds of threads out at once, and an outside wake-up queued
    /// behind them would wait for all of them.
    /// </summary>
    private readonly ConcurrentQueue<GreenThread> _overflow = new();

    /// <summary>Every live thread, for disposal.</summary>
    private readonly ThreadRegistry _registry;

    /// <summary>
    /// The monitor that <see cref="WaitForAll(TimeSpan)"/> waits on, pulsed when the live count reaches zero; also
    /// guards <see cref="_whenAll"/>. Nothing on the hot path takes it.
    /// </summary>
    private readonly object _liveMonitor = new();

    /// <summary>Watches the workers' turns from its own OS thread (see <see cref="Watchdog"/>).</summary>
    private readonly Watchdog _watchdog;

    /// <summary>The timer queue (sleeps, and every other deadline), made on first use; see <see cref="Timers"/>.</summary>
    private TimerQueue? _timers;

    /// <summary>Tasks from <see cref="WhenAll"/> waiting for the live count to reach zero. Guarded by <see cref="_liveMonitor"/>.</summary>
    private List<TaskCompletionSource>? _whenAll;

    /// <summary>Number of threads spawned and not yet ended, and the source of thread ids, on a cache line of their own.</summary>
    private SpawnCounters _counters;

    /// <summary>0 while running, 1 once disposal began.</summary>
    private int _disposed;

    /// <summary>Completed when the first disposal has finished, for the calls that come while it runs.</summary>
    private readonly TaskCompletionSource _disposal = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The managed id of the OS thread running the first disposal, so a call from a <c>finally</c> block it runs does not wait for itself.</summary>
    private int _disposingOsThread;

    /// <summary>
    /// The threads the disposal took from the registry to dispose one by one (set once the workers have stopped), so
    /// <see cref="Dispose(TimeSpan)"/> can name those it has not reached or whose <c>finally</c> blocks still run.
    /// </summary>
    private List<GreenThread>? _beingDisposed;


    /// <summary>Initializes a scheduler with one worker per processor and the default policy.</summary>
    public Scheduler()
        : this(new SchedulerOptions())
    {
    }

    /// <summary>Initializes a scheduler with the default policy and starts its workers.</summary>
    /// <param name="workerCount">How many OS threads run green threads; 1 gives deterministic coroutines.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="workerCount"/> is less than 1 or more than 1024.</exception>
    public Scheduler(int workerCount)
        : this(new SchedulerOptions { WorkerCount = workerCount })
    {
    }

    /// <summary>Initializes a scheduler and starts its workers.</summary>
    /// <param name="options">The number of workers and the scheduling policy.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> or its <see cref="SchedulerOptions.TimeProvider"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The worker count is less than 1 or more than 1024, or the policy is not a <see cref="SchedulingPolicy"/> value.</exception>
    public Scheduler(SchedulerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var workerCount = options.WorkerCount;
        ArgumentOutOfRangeException.ThrowIfLessThan(workerCount, 1, "options.WorkerCount");
        ArgumentOutOfRangeException.ThrowIfGreaterThan(workerCount, 1024, "options.WorkerCount");
        TimeProvider = options.TimeProvider ?? throw new ArgumentNullException("options.TimeProvider", "options.TimeProvider is null; leave it unset for TimeProvider.System, the machine's clock.");
        if (options.LongTurnThreshold <= TimeSpan.Zero && options.LongTurnThreshold != Timeout.InfiniteTimeSpan)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.LongTurnThreshold, "options.LongTurnThreshold must be positive, or Timeout.InfiniteTimeSpan to report no turn.");
        }

        Policy = options.Policy;
        Name = options.Name;
        Number = Interlocked.Increment(ref s_lastNumber);
        Controller = options.Controller;
        if (Controller is not null && workerCount != 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), workerCount, "A driven run has one worker.");
        }

        Placement = new Placement(this, Controller is not null ? Controller.Placement : Policy switch
        {
            SchedulingPolicy.WorkStealing => null,
            SchedulingPolicy.SoftAffinity => new SoftAffinityPolicy(this),
            SchedulingPolicy.Dedicated => new DedicatedPolicy(this),
            SchedulingPolicy.SharedQueue => new SharedQueuePolicy(this),
            _ => throw new ArgumentOutOfRangeException(nameof(options), Policy, $"options.Policy is {Policy}, which is not a {nameof(SchedulingPolicy)} value."),
        });
        Tracing.Watch();
        Idle = new IdleWorkers(workerCount);
        _registry = new ThreadRegistry(workerCount);
        Workers = new Worker[workerCount];
        for (var i = 0; i < workerCount; i++)
        {
            Workers[i] = new Worker(this, i);
        }

        _watchdog = new Watchdog(this, options.LongTurnThreshold);
        Idle.Watchdog = _watchdog;
        foreach (var worker in Workers)
        {
            worker.Start();
        }

        if (Controller is null)
        {
            // A driven run has nothing for it to watch: one worker, run by the driving thread, no real time.
            _watchdog.Start();
        }

        StartMetrics();
    }

    /// <summary>
    /// Gets the policy a scheduler uses unless its options say otherwise: the one that measured best overall (see
    /// docs/scheduling.md).
    /// </summary>
    public static SchedulingPolicy DefaultPolicy => SchedulingPolicy.WorkStealing;

    /// <summary>Gets the name given in <see cref="SchedulerOptions.Name"/>, if any.</summary>
    public string? Name { get; }

    /// <summary>
    /// Gets the scheduler's number in the process, from 1, in the order they were made: what <see cref="ToString"/>,
    /// exception messages and the <c>ThreadIterators</c> meter's <c>scheduler</c> tag (<c>name#number</c>) name it by.
    /// </summary>
    public long Number { get; }

    /// <summary>Gets where this scheduler runs ready threads.</summary>
    public SchedulingPolicy Policy { get; }

    /// <summary>Gets the number of workers (OS threads).</summary>
    public int WorkerCount => Workers.Length;

    /// <summary>Gets the number of green threads spawned that have not ended yet.</summary>
    /// <remarks>Exact while no thread is spawned or ends; a thread spawning or ending meanwhile may or may not be counted.</remarks>
    public long LiveThreadCount
    {
        get
        {
            // The count less the credit the workers hold (see Worker.TakeLiveCredit). Reading the credits on both
            // sides of the count, and waiting out a credit on its way between a worker and the count, leaves out a
            // reading torn by a worker moving credit.
            var spin = default(SpinWait);
            while (true)
            {
                var before = WorkerLiveCredit();
                var live = Interlocked.Read(ref _counters.Live);
                if (before != Worker.CreditMoving && WorkerLiveCredit() == before)
                {
                    return Math.Max(0, live - before);
                }

                spin.SpinOnce();
            }
        }
    }

    /// <summary>
    /// Gets where all of this scheduler's time comes from (<see cref="SchedulerOptions.TimeProvider"/>): the clock its
    /// sleeps, timeouts and timers run on. In an explored run (the ThreadIterators.Testing package) it is the run's
    /// virtual clock, so a test reads the time its threads see from here rather than from the machine.
    /// </summary>
    public TimeProvider TimeProvider { get; }

    /// <summary>
    /// The implementation of <see cref="Policy"/>. A readonly field, not a property, so a wake-up calls the struct's
    /// methods in place rather than on a copy.
    /// </summary>
    internal readonly Placement Placement;

    /// <summary>Gets the controller of a driven run, or null (<see cref="SchedulerOptions.Controller"/>).</summary>
    internal IRunController? Controller { get; }

    /// <summary>Gets a value indicating whether this is a driven run that takes outside work's completions in an order of its controller's (<see cref="IRunController.SeedsOutsideWork"/>).</summary>
    internal bool SeedsOutsideWork => Controller is { SeedsOutsideWork: true };

    /// <summary>Gets the workers.</summary>
    internal Worker[] Workers { get; }

    /// <summary>Gets the idle workers, and the park/wake protocol (see <see cref="IdleWorkers"/>).</summary>
    internal IdleWorkers Idle { get; }

    /// <summary>Gets a value indicating whether disposal has begun; workers then finish their turn and stop.</summary>
    internal bool IsStopping => Volatile.Read(ref _disposed) != 0;

    /// <summary>
    /// Gets the timer queue, creating it on first use. A queue starts no thread and makes no timer until its first
    /// schedule, so a queue that lost the creation race leaves nothing behind; after disposal this is a disposed
    /// queue, whose schedules do nothing.
    /// </summary>
    internal TimerQueue Timers
    {
        get
        {
            var timers = Volatile.Read(ref _timers);
            return timers ?? Interlocked.CompareExchange(ref _timers, new TimerQueue(TimeProvider), null) ?? _timers!;
        }
    }

    /// <summary>Starts a green thread. It runs as soon as a worker is free.</summary>
    /// <param name="body">The thread's body, usually a call of an iterator method. <c>GetEnumerator()</c> is called once, here.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <returns>A handle to join the thread.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="body"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public GreenThread Spawn(IEnumerable<Event> body, string? name = null) => SpawnThread(body, name, inbox: null);

    /// <summary>
    /// Starts a green thread that is <paramref name="inbox"/>'s receiver from the start, before its body runs, as
    /// though its first act were a receive from it: a server whose mailbox is bound to it at its spawn.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The mailbox then knows its server before the server first receives, so nothing sent to it waits on a thread
    /// that may never come: if the thread ends without receiving (normally, by a fault, or stopped, even before it
    /// ever ran), the mailbox's messages go to the dead letters as at any receiver's end
    /// (<see cref="Mailbox{T}.OutlivesReceiver"/>), and an ask of it
    /// (<see cref="MailboxAsking.extension{T}(Mailbox{T}).Ask{TReply}"/>) fails with a
    /// <see cref="ServerEndedException"/> naming the mailbox and the thread, at once if the thread had ended. A
    /// thread that only receives from the mailbox later gets the same by its first receive; the bind here only closes
    /// the time before it.
    /// </para>
    /// <para>
    /// The thread may be bound to one mailbox this way; it becomes the receiver of others by receiving from them. The
    /// bind costs the spawn one compare-and-swap, and the spawn without a mailbox nothing.
    /// </para>
    /// </remarks>
    /// <example>
    /// <code>
    /// var counter = new Mailbox&lt;Get&gt;("counter");
    /// var server = scheduler.SpawnReceiver(counter, Serve(counter), "counter");
    /// // An ask now fails with ServerEndedException if the server ends before it replies, even before its first receive.
    /// </code>
    /// </example>
    /// <typeparam name="T">The type of the mailbox's messages.</typeparam>
    /// <param name="inbox">The mailbox the thread receives from; it has no receiver, or one that has ended and that it outlives.</param>
    /// <param name="body">The thread's body, usually a call of an iterator method. <c>GetEnumerator()</c> is called once, here.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <returns>A handle to join the thread.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="body"/> or <paramref name="inbox"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    /// <exception cref="InvalidOperationException">
    /// <paramref name="inbox"/> has a receiver that is alive, or one that has ended and it does not outlive, or async
    /// code reads it (<see cref="Mailbox{T}.AsChannelReader"/>); the thread is not started.
    /// </exception>
    public GreenThread SpawnReceiver<T>(Mailbox<T> inbox, IEnumerable<Event> body, string? name = null)
    {
        ArgumentNullException.ThrowIfNull(inbox);
        return SpawnThread(body, name, inbox);
    }

    /// <summary>Starts a green thread, first bound as <paramref name="inbox"/>'s receiver if there is one: the steps in this file's header.</summary>
    private GreenThread SpawnThread(IEnumerable<Event> body, string? name, ISpawnBinding? inbox)
    {
        ArgumentNullException.ThrowIfNull(body);
        if (IsStopping)
        {
            throw Disposed(name);
        }

        var own = OsThreadContext.Current.WorkerOf(this);
        var id = own?.NextThreadId() ?? Interlocked.Increment(ref _counters.LastId);
        var home = Placement.HomeOf(id, own);
        var thread = new GreenThread(this, body.GetEnumerator(), id, home, name);
        if (inbox is not null)
        {
            BindAtSpawn(thread, inbox);
        }

        if (own is not null)
        {
            own.TakeLiveCredit();
            own.Counters.Spawned++;
        }
        else
        {
            Interlocked.Increment(ref _counters.Live);
            Interlocked.Increment(ref Counts.Spawned);
        }

        _registry.Add(thread, own);
        if (ThreadIteratorsEventSource.Log.ThreadsEnabled)
        {
            ThreadIteratorsEventSource.Log.ThreadSpawn(Number, id);
        }

        if (Tracing.Seen)
        {
            Tracing.Spawned(thread);
        }

        if (IsStopping)
        {
            // Disposal began while the body's enumerator was being made. If it already took the registry, it
            // disposes this thread too; otherwise end it here. Either way the spawn fails.
            if (_registry.Remove(thread, own))
            {
                StopParked(thread);
            }

            throw Disposed(name);
        }

        thread.AssertQueued("its spawn");
        Placement.Spawned(thread, own);

        return thread;
    }

    /// <summary>Binds a thread being spawned as <paramref name="inbox"/>'s receiver; a refused bind disposes its enumerator, since it never runs.</summary>
    private static void BindAtSpawn(GreenThread thread, ISpawnBinding inbox)
    {
        try
        {
            inbox.BindAtSpawn(thread);
        }
        catch
        {
            thread.Body?.Dispose();
            throw;
        }
    }

    /// <summary>Blocks the calling OS thread until every green thread of this scheduler has ended.</summary>
    /// <exception cref="InvalidOperationException">Called on a worker of this scheduler.</exception>
    public void WaitForAll() => WaitForAll(Timeout.InfiniteTimeSpan);

    /// <summary>Blocks the calling OS thread until every green thread has ended or the timeout passes.</summary>
    /// <param name="timeout">How long to wait; <see cref="Timeout.InfiniteTimeSpan"/> waits forever.</param>
    /// <returns>True if no green thread was live; false if the timeout passed first.</returns>
    /// <exception cref="InvalidOperationException">Called on a worker of this scheduler.</exception>
    public bool WaitForAll(TimeSpan timeout)
    {
        ThrowIfOnOwnWorker("called WaitForAll() on its own scheduler, which can never finish while it runs", orDisposing: true);

        var deadline = timeout == Timeout.InfiniteTimeSpan ? long.MaxValue : Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        lock (_liveMonitor)
        {
            while (Interlocked.Read(ref _counters.Live) != 0)
            {
                var remaining = deadline == long.MaxValue ? Timeout.InfiniteTimeSpan : Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), deadline);
                if (remaining != Timeout.InfiniteTimeSpan && remaining <= TimeSpan.Zero)
                {
                    return false;
                }

                Monitor.Wait(_liveMonitor, remaining);
            }
        }

        return true;
    }

    /// <summary>Gets a task that completes when no green thread of this scheduler is live.</summary>
    /// <returns>The task; continuations run asynchronously.</returns>
    public Task WhenAll()
    {
        lock (_liveMonitor)
        {
            if (Interlocked.Read(ref _counters.Live) == 0)
            {
                return Task.CompletedTask;
            }

            var task = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            (_whenAll ??= []).Add(task);
            return task.Task;
        }
    }

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"Scheduler #{Number} ({WorkerCount} workers)" : $"Scheduler #{Number} '{Name}' ({WorkerCount} workers)";

    /// <summary>Gets what the debugger shows: the scheduler, its policy, its live threads and dead letters, and whether it is disposed.</summary>
    internal string DebuggerDisplay =>
        $"{this}, {Policy}: {LiveThreadCount} live threads, {DeadLetterCount} dead letters{(IsStopping ? ", disposed" : string.Empty)}";

    /// <summary>The exception of a spawn on a disposed scheduler, naming the scheduler and the thread.</summary>
    private ObjectDisposedException Disposed(string? name) =>
        new(ToString(), $"{this} is disposed (or being disposed) and cannot spawn {(name is null ? "a thread" : $"'{name}'")}.");

    /// <summary>Refuses a blocking call made on one of this scheduler's workers, naming the green thread that made it.</summary>
    /// <param name="what">What the thread did and why that cannot work, completing "GreenThread #n ...".</param>
    /// <param name="orDisposing">Whether to refuse the call from a <c>finally</c> block that this scheduler's disposal runs too, where a wait for a thread it has not yet disposed never ends.</param>
    internal void ThrowIfOnOwnWorker(string what, bool orDisposing = false)
    {
        var context = OsThreadContext.Current;
        if (context.Worker is { } worker && worker.Scheduler == this)
        {
            throw new InvalidOperationException($"{worker.RunningDescription} {what}.");
        }

        if (orDisposing && context.Stopping is { } stopping && stopping.Scheduler == this)
        {
            throw new InvalidOperationException($"{stopping}, in a finally block that its scheduler's disposal runs, {what}.");
        }
    }

    /// <summary>Gets the threads the registry holds, ended ones it has not dropped yet included; for tests.</summary>
    internal int RegistryHeldCount => _registry.HeldCount;

    /// <summary>Gets the live thread with this id, or null if it has ended; a search (<see cref="ThreadRegistry.Find"/>).</summary>
    internal GreenThread? FindLive(long id) => _registry.Find(id);

    /// <summary>Gets a snapshot of the live threads, for diagnostics (the wait-for graph). Any thread.</summary>
    internal IReadOnlyList<GreenThread> LiveThreads() => _registry.Snapshot();

    /// <summary>The live-count credit all workers hold, or <see cref="Worker.CreditMoving"/> while one moves.</summary>
    private long WorkerLiveCredit()
    {
        long credit = 0;
        foreach (var worker in Workers)
        {
            var held = worker.LiveCredit;
            if (held == Worker.CreditMoving)
            {
                return Worker.CreditMoving;
            }

            credit += held;
        }

        return credit;
    }

    /// <summary>Reserves <paramref name="count"/> thread ids for a worker and returns the last of them.</summary>
    internal long ReserveIds(int count) => Interlocked.Add(ref _counters.LastId, count);
}
