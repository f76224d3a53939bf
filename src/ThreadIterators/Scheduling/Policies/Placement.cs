using System.Runtime.CompilerServices;

namespace ThreadIterators;

// The calls of each placement decision, all through this struct: Scheduler.Spawn (HomeOf, Spawned), Wake (Woken: a
// message to a parked receiver, a joined thread ending, a sleep timing out; called by the waker directly, or through
// Scheduler.Ready), WakeAlongside (WokenAlongside, through Scheduler.ReadyAlongside), Worker.GiveUpTurn (Yielded), Worker.Overflow (Overflowed, from LocalRunQueue.Push) and
// Worker.RunTurn (TurnStarting, Weighed); a worker reads Steals and Pins once. What each policy does:
//
//   method          work stealing           soft affinity             dedicated                  shared queue
//   HomeOf          none (0)                the spawning worker;      id modulo workers          none (0)
//                                           none from outside
//   Spawned         spawner's spawn deque   spawner's local queue     spawner's local queue if   inject
//                                                                     home, else home's inbound
//   Woken           waker's run-next slot   see below                 waker's run-next slot if   inject
//                                                                     home, else home's inbound
//   WokenAlongside  waker's local queue     as Woken                  as Woken                   inject
//   Yielded         local queue             local queue               local queue                inject
//   Overflowed      overflow queue          overflow queue            own inbound queue          inject (never called)
//   TurnStarting    nothing                 home := this worker       nothing                    nothing
//                                           (unless homeless); weigh
//                                           every WeighInterval-th turn
//   Weighed         nothing                 heavy above HeavyStep,    nothing                    nothing
//                                           light below LightStep
//   Steals, Pins    yes, no                 yes, no                   no, yes                    no, no
//
// From an OS thread that is not one of the scheduler's workers, a thread that would go to the caller's own queues goes
// to the inject queue instead, and one that would go home to its home's inbound queue. Soft affinity's Woken: a
// homeless thread runs next on the waker, which becomes its home; a thread at home on the waker, a light thread, or one
// whose home is listed idle runs next on the waker; a heavy thread whose home is awake goes to its home's inbound
// queue. The weighing constants are in SoftAffinityPolicy.cs; docs/scheduling.md explains and measures the policies.

/// <summary>
/// Where a scheduler's ready threads go: the wake-up of a parked thread (<see cref="Wake"/>), and each placement
/// decision, made here for the default policy, <see cref="SchedulingPolicy.WorkStealing"/>, and by any other policy
/// through <see cref="IPlacementPolicy"/>. The default's decisions are written here, not behind the interface, so that
/// a wake-up goes from the waker to the worker's run-next slot with no call between: through the interface the
/// wake-up's call cost ThreadRing on one worker 11% (46.9 against 42.2 ns per hop).
/// </summary>
/// <remarks>
/// Work stealing queues a thread on the worker that makes it ready: a woken one in the run-next slot, so the hop stays
/// in cache; one woken by a waker that goes on running in the stealable local queue; a spawned one in the worker's
/// spawn deque, newest first, so trees of spawns unfold depth first. From other OS threads it goes to the inject
/// queue. Idle workers steal; a full local queue overflows to the scheduler's overflow queue. Threads have no home.
/// Immutable; held by value in the scheduler and in each worker, so a call reads the policy from the caller's own
/// fields. Any thread, with the worker arguments <see cref="IPlacementPolicy"/> describes.
/// </remarks>
internal readonly struct Placement
{
    private readonly Scheduler _scheduler;

    /// <summary>The policy if it is not the default one, else null.</summary>
    private readonly IPlacementPolicy? _other;

    internal Placement(Scheduler scheduler, IPlacementPolicy? other)
    {
        _scheduler = scheduler;
        _other = other;
    }

    /// <inheritdoc cref="IPlacementPolicy.Steals"/>
    internal bool Steals => _other?.Steals ?? true;

    /// <inheritdoc cref="IPlacementPolicy.Pins"/>
    internal bool Pins => _other?.Pins ?? false;

    /// <summary>
    /// Makes a parked thread runnable, woken by the OS thread whose context is <paramref name="context"/>: the thread
    /// goes where the policy says (<see cref="IPlacementPolicy.Woken"/>). Any thread.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void Wake(GreenThread thread, OsThreadContext context)
    {
        var waker = Waker(thread, context);
        if (_other is { } other)
        {
            other.Woken(thread, waker);
        }
        else if (waker is null)
        {
            _scheduler.Inject(thread, wake: true);
        }
        else
        {
            waker.PushRunNext(thread);
        }
    }

    /// <summary>
    /// Makes a parked thread runnable for a waker that goes on running: a receiver releasing senders that wait for
    /// room, a sender waking a receiver of a shared mailbox (<see cref="IPlacementPolicy.WokenAlongside"/>). Any thread.
    /// </summary>
    internal void WakeAlongside(GreenThread thread, OsThreadContext context)
    {
        var waker = Waker(thread, context);
        if (_other is { } other)
        {
            other.WokenAlongside(thread, waker);
        }
        else if (waker is null)
        {
            _scheduler.Inject(thread, wake: true);
        }
        else
        {
            waker.PushLocal(thread);
        }
    }

    /// <inheritdoc cref="IPlacementPolicy.HomeOf"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal int HomeOf(long id, Worker? spawner) => _other is { } other ? other.HomeOf(id, spawner) : 0;

    /// <inheritdoc cref="IPlacementPolicy.Spawned"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void Spawned(GreenThread thread, Worker? spawner)
    {
        if (_other is { } other)
        {
            other.Spawned(thread, spawner);
        }
        else if (spawner is null)
        {
            _scheduler.Inject(thread, wake: true);
        }
        else
        {
            spawner.PushSpawned(thread);
        }
    }

    /// <inheritdoc cref="IPlacementPolicy.TurnStarting"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long TurnStarting(GreenThread thread, Worker worker) => _other is { } other ? other.TurnStarting(thread, worker) : 0;

    /// <inheritdoc cref="IPlacementPolicy.Yielded"/>
    internal void Yielded(GreenThread thread, Worker worker)
    {
        if (_other is { } other)
        {
            other.Yielded(thread, worker);
        }
        else
        {
            worker.PushLocal(thread);
        }
    }

    /// <inheritdoc cref="IPlacementPolicy.Overflowed"/>
    internal void Overflowed(GreenThread thread, Worker worker, bool wake)
    {
        if (_other is { } other)
        {
            other.Overflowed(thread, worker, wake);
        }
        else
        {
            _scheduler.Overflow(thread, wake);
        }
    }

    /// <inheritdoc cref="IPlacementPolicy.Weighed"/>
    internal void Weighed(GreenThread thread, long ticks) => _other?.Weighed(thread, ticks);

    /// <summary>
    /// The steps of a wake-up before the placement: the thread is queued (DEBUG), the waker is the calling OS thread's
    /// worker if it is one of this scheduler's, else null, and the wake-up is written to the event source while the
    /// thread cannot run yet.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Worker? Waker(GreenThread thread, OsThreadContext context)
    {
        thread.AssertQueued("a wake-up");
        var waker = context.WorkerOf(_scheduler);
        if (ThreadIteratorsEventSource.Log.SchedulingEnabled)
        {
            TraceWake(thread, waker);
        }

        return waker;
    }

    /// <summary>Writes a wake-up to the event source. Before the placement: once placed, the thread may run and park again.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void TraceWake(GreenThread thread, Worker? waker) => ThreadIteratorsEventSource.Log.ThreadWake(_scheduler.Number, thread.Id, waker?.Index ?? -1);
}
