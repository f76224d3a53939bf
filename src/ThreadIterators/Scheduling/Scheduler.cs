using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

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
[DebuggerDisplay("Scheduler: {WorkerCount} workers, {LiveThreadCount} live threads")]
public sealed partial class Scheduler : IDisposable, IAsyncDisposable
{
    /// <summary>
    /// How long an idle worker looks for work before parking. Guessed, after Go, which spins for a similar few tens of
    /// microseconds; not measured here against other durations.
    /// </summary>
    internal static readonly TimeSpan SpinDuration = TimeSpan.FromMicroseconds(50);

    /// <summary>Threads made ready by OS threads that are not this scheduler's workers, and overflow of local queues.</summary>
    private readonly ConcurrentQueue<GreenThread> _inject = new();

    /// <summary>Every live thread, for disposal.</summary>
    private readonly ThreadRegistry _registry = new();

    /// <summary>
    /// The monitor that <see cref="WaitForAll(TimeSpan)"/> waits on, pulsed when the live count reaches zero; also
    /// guards <see cref="_whenAll"/>. Nothing on the hot path takes it.
    /// </summary>
    private readonly object _liveMonitor = new();

    /// <summary>Lazily created timer for <see cref="Event.Sleep"/>.</summary>
    private TimerQueue? _timers;

    /// <summary>Tasks from <see cref="WhenAll"/> waiting for the live count to reach zero. Guarded by <see cref="_liveMonitor"/>.</summary>
    private List<TaskCompletionSource>? _whenAll;

    /// <summary>Number of threads spawned and not yet ended, and the source of thread ids, on a cache line of their own.</summary>
    private SpawnCounters _counters;

    /// <summary>0 while running, 1 once disposal began.</summary>
    private int _disposed;

    /// <summary>
    /// <see cref="Placement"/> if it is the default, work stealing: the spawn and wake-up paths call it through its
    /// sealed type, so the call is direct and inlined (see <see cref="IPlacementPolicy"/>).
    /// </summary>
    private readonly WorkStealingPolicy? _workStealing;

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
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The worker count is less than 1 or more than 1024, or the policy is not a <see cref="SchedulingPolicy"/> value.</exception>
    public Scheduler(SchedulerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var workerCount = options.WorkerCount;
        ArgumentOutOfRangeException.ThrowIfLessThan(workerCount, 1, "options.WorkerCount");
        ArgumentOutOfRangeException.ThrowIfGreaterThan(workerCount, 1024, "options.WorkerCount");
        Policy = options.Policy;
        Placement = Policy switch
        {
            SchedulingPolicy.WorkStealing => new WorkStealingPolicy(this),
            SchedulingPolicy.SoftAffinity => new SoftAffinityPolicy(this),
            SchedulingPolicy.Dedicated => new DedicatedPolicy(this),
            SchedulingPolicy.SharedQueue => new SharedQueuePolicy(this),
            _ => throw new ArgumentOutOfRangeException(nameof(options), Policy, $"options.Policy is {Policy}, which is not a {nameof(SchedulingPolicy)} value."),
        };
        _workStealing = Placement as WorkStealingPolicy;
        Idle = new IdleWorkers(workerCount);
        Workers = new Worker[workerCount];
        for (var i = 0; i < workerCount; i++)
        {
            Workers[i] = new Worker(this, i);
        }

        foreach (var worker in Workers)
        {
            worker.Start();
        }
    }

    /// <summary>
    /// Gets the policy a scheduler uses unless its options say otherwise: the one that measured best overall (see
    /// docs/scheduling.md).
    /// </summary>
    public static SchedulingPolicy DefaultPolicy => SchedulingPolicy.WorkStealing;

    /// <summary>Gets where this scheduler runs ready threads.</summary>
    public SchedulingPolicy Policy { get; }

    /// <summary>Gets the number of workers (OS threads).</summary>
    public int WorkerCount => Workers.Length;

    /// <summary>Gets the number of green threads spawned that have not ended yet.</summary>
    public long LiveThreadCount => Interlocked.Read(ref _counters.Live);

    /// <summary>Gets the implementation of <see cref="Policy"/>.</summary>
    internal IPlacementPolicy Placement { get; }

    /// <summary>Gets the workers.</summary>
    internal Worker[] Workers { get; }

    /// <summary>Gets the idle workers, and the park/wake protocol (see <see cref="IdleWorkers"/>).</summary>
    internal IdleWorkers Idle { get; }

    /// <summary>Gets a value indicating whether disposal has begun; workers then finish their turn and stop.</summary>
    internal bool IsStopping => Volatile.Read(ref _disposed) != 0;

    /// <summary>Gets the timer queue, creating it on first use.</summary>
    internal TimerQueue Timers
    {
        get
        {
            var timers = Volatile.Read(ref _timers);
            if (timers is not null)
            {
                return timers;
            }

            var created = new TimerQueue(this);
            var winner = Interlocked.CompareExchange(ref _timers, created, null);
            if (winner is not null)
            {
                return winner;
            }

            // Start the timer thread only for the instance that won, so a lost race leaves no thread behind.
            created.Start();
            return created;
        }
    }

    /// <summary>Starts a green thread. It runs as soon as a worker is free.</summary>
    /// <param name="body">The thread's body, usually a call of an iterator method. <c>GetEnumerator()</c> is called once, here.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <returns>A handle to join the thread.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="body"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public GreenThread Spawn(IEnumerable<Event> body, string? name = null)
    {
        ArgumentNullException.ThrowIfNull(body);
        ObjectDisposedException.ThrowIf(IsStopping, this);
        var own = OwnWorker(OsThreadContext.Current);
        var id = own?.NextThreadId() ?? Interlocked.Increment(ref _counters.LastId);
        var home = _workStealing is { } workStealing ? workStealing.HomeOf(id, own) : Placement.HomeOf(id, own);
        var thread = new GreenThread(this, body.GetEnumerator(), id, home, name);
        Interlocked.Increment(ref _counters.Live);
        _registry.Add(thread);
        if (IsStopping)
        {
            // Disposal began while the body's enumerator was being made. If it already took the registry, it
            // disposes this thread too; otherwise end it here. Either way the spawn fails.
            if (_registry.Remove(thread))
            {
                StopParked(thread);
            }

            ObjectDisposedException.ThrowIf(true, this);
        }

        thread.AssertQueued("its spawn");
        if (_workStealing is { } stealing)
        {
            stealing.Spawned(thread, own);
        }
        else
        {
            Placement.Spawned(thread, own);
        }

        return thread;
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
        ThrowIfOnOwnWorker("called WaitForAll() on its own scheduler, which can never finish while it runs");

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

    /// <summary>
    /// Stops the workers, then disposes every green thread still live, so their <c>finally</c> blocks run. Joiners
    /// outside the scheduler see an <see cref="OperationCanceledException"/>.
    /// </summary>
    /// <remarks>A thread that is running finishes its current turn first. Exceptions from <c>finally</c> blocks are reported through <see cref="UnobservedFault"/>.</remarks>
    /// <exception cref="InvalidOperationException">Called from a green thread of this scheduler.</exception>
    public void Dispose()
    {
        ThrowIfOnOwnWorker("tried to dispose its own scheduler; a worker cannot wait for itself to stop");

        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        foreach (var worker in Workers)
        {
            worker.Unpark();
        }

        foreach (var worker in Workers)
        {
            worker.Join();
        }

        _timers?.Dispose();
        foreach (var thread in _registry.TakeAll())
        {
            StopParked(thread);
        }

        ReportPendingUnobserved();
    }

    /// <summary>Disposes the scheduler without blocking the calling thread.</summary>
    /// <returns>A task that completes when disposal has finished.</returns>
    public ValueTask DisposeAsync()
    {
        ThrowIfOnOwnWorker("tried to dispose its own scheduler; a worker cannot wait for itself to stop");

        return new ValueTask(Task.Factory.StartNew(Dispose, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default));
    }

    /// <inheritdoc/>
    public override string ToString() => $"Scheduler ({WorkerCount} workers)";

    /// <summary>Refuses a blocking call made on one of this scheduler's workers, naming the green thread that made it.</summary>
    /// <param name="what">What the thread did and why that cannot work, completing "GreenThread #n ...".</param>
    internal void ThrowIfOnOwnWorker(string what)
    {
        if (OsThreadContext.Current.Worker is { } worker && worker.Scheduler == this)
        {
            throw new InvalidOperationException($"{worker.RunningDescription} {what}.");
        }
    }

    /// <summary>Describes a live thread by id for an exception message: its name too, if it has one.</summary>
    internal string Describe(long id) => _registry.Find(id)?.ToString() ?? $"GreenThread #{id}";

    /// <summary>Makes a parked thread runnable, where the policy says (see <see cref="IPlacementPolicy.Woken"/>).</summary>
    internal void Ready(GreenThread thread) => Ready(thread, OsThreadContext.Current);

    /// <summary>As <see cref="Ready(GreenThread)"/>, for a caller that has the calling thread's context at hand.</summary>
    internal void Ready(GreenThread thread, OsThreadContext context)
    {
        thread.AssertQueued("a wake-up");
        var waker = OwnWorker(context);
        if (_workStealing is { } workStealing)
        {
            workStealing.Woken(thread, waker);
        }
        else
        {
            Placement.Woken(thread, waker);
        }
    }

    /// <summary>
    /// Makes a parked thread runnable for a waker that goes on running: a receiver releasing senders that wait for
    /// room, a sender waking a receiver of a shared mailbox (see <see cref="IPlacementPolicy.WokenAlongside"/>).
    /// </summary>
    internal void ReadyAlongside(GreenThread thread)
    {
        thread.AssertQueued("a wake-up alongside its waker");
        var waker = OwnWorker(OsThreadContext.Current);
        if (_workStealing is { } workStealing)
        {
            workStealing.WokenAlongside(thread, waker);
        }
        else
        {
            Placement.WokenAlongside(thread, waker);
        }
    }

    /// <summary>Gets the worker the calling OS thread is if it is one of this scheduler's, else null.</summary>
    private Worker? OwnWorker(OsThreadContext context) => context.Worker is { } worker && worker.Scheduler == this ? worker : null;

    /// <summary>Adds a thread to the inject queue; any thread.</summary>
    internal void Inject(GreenThread thread, bool wake)
    {
        // The enqueue is an interlocked operation, so it is also the store-load fence the wake check needs.
        _inject.Enqueue(thread);
        if (wake)
        {
            WakeIdleWorker();
        }
    }

    /// <summary>Reserves <paramref name="count"/> thread ids for a worker and returns the last of them.</summary>
    internal long ReserveIds(int count) => Interlocked.Add(ref _counters.LastId, count);

    internal GreenThread? TakeInjected() => _inject.TryDequeue(out var thread) ? thread : null;

    /// <summary>
    /// Wakes one parked worker if there is one and no worker is already spinning for work. Called after work was
    /// published and a full fence was passed.
    /// </summary>
    internal void WakeIdleWorker()
    {
        if (Idle.AnyToWake)
        {
            Idle.TakeOne()?.Unpark();
        }
    }

    /// <summary>
    /// Wakes <paramref name="worker"/> if it is parked. Called after a thread was put in its inbound queue and a full
    /// fence was passed; the worker announces itself parked (a full fence) before it looks at that queue a last time.
    /// </summary>
    internal void WakeWorker(Worker worker)
    {
        Idle.Unlist(worker);
        worker.Unpark();
    }

    /// <summary>Ends spinning; a spinner that found work wakes another worker if more work is waiting, as Go's resetspinning does.</summary>
    internal void EndSpinning(bool foundWork)
    {
        Idle.EndSpinning();
        if (foundWork && HasVisibleWork())
        {
            WakeIdleWorker();
        }
    }

    /// <summary>Ends a thread: disposes its body (running its <c>finally</c> blocks), publishes the outcome and forgets it.</summary>
    internal void Exit(GreenThread thread, ExceptionDispatchInfo? fault)
    {
        try
        {
            thread.Body?.Dispose();
        }
        catch (Exception exception)
        {
            // The body's own fault, if any, stays the thread's; a second one from a finally block is reported at once.
            if (fault is null)
            {
                fault = ExceptionDispatchInfo.Capture(exception);
            }
            else
            {
                ReportUnobserved(thread, exception);
            }
        }

        _registry.Remove(thread);
        thread.AssertEnded(byDisposal: false);
        thread.Complete(fault, report: true);
        ThreadEnded();
    }

    private bool HasVisibleWork()
    {
        if (!_inject.IsEmpty)
        {
            return true;
        }

        if (!Placement.Steals)
        {
            // Other workers could not take what is queued on a worker.
            return false;
        }

        foreach (var worker in Workers)
        {
            if (worker.Queue.Count > 0 || worker.HasInbound)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Disposes a thread left live when the workers stopped. Disposing thread only, after the workers have stopped.</summary>
    private void StopParked(GreenThread thread)
    {
        thread.WaitingOn?.Abandon(thread);
        ExceptionDispatchInfo? fault = null;
        try
        {
            thread.Body?.Dispose();
        }
        catch (Exception exception)
        {
            fault = ExceptionDispatchInfo.Capture(exception);
            ReportUnobserved(thread, exception);
        }

        fault ??= ExceptionDispatchInfo.Capture(new OperationCanceledException($"{thread} was stopped because its scheduler was disposed."));
        thread.AssertEnded(byDisposal: true);
        thread.Complete(fault, report: false);
        ThreadEnded();
    }

    private void ThreadEnded()
    {
        if (Interlocked.Decrement(ref _counters.Live) != 0)
        {
            return;
        }

        List<TaskCompletionSource>? whenAll;
        lock (_liveMonitor)
        {
            Monitor.PulseAll(_liveMonitor);
            if (Interlocked.Read(ref _counters.Live) != 0)
            {
                // A spawn came in between; the tasks wait for the next time the count reaches zero.
                return;
            }

            whenAll = _whenAll;
            _whenAll = null;
        }

        if (whenAll is not null)
        {
            foreach (var task in whenAll)
            {
                task.TrySetResult();
            }
        }
    }
}
