using System.Runtime.CompilerServices;

namespace ThreadIterators;

// The calls of each placement decision, all through this struct: Scheduler.Spawn (HomeOf, Spawned), Scheduler.Ready
// (Woken: a message to a parked receiver, a joined thread ending, a sleep timing out), Scheduler.ReadyAlongside
// (WokenAlongside), Worker.GiveUpTurn (Yielded), Worker.Overflow (Overflowed, from LocalRunQueue.Push) and
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
/// A scheduler's placement policy as the scheduler and its workers call it: the one place that chooses between the
/// default policy, <see cref="WorkStealingPolicy"/>, called through a reference of its own sealed type so that the
/// JIT calls and inlines it directly, and any other policy, called through <see cref="IPlacementPolicy"/>. Through
/// the interface the wake-up's call cost ThreadRing on one worker 11% (46.9 against 42.2 ns per hop).
/// </summary>
/// <remarks>
/// Immutable; held by value in the scheduler and in each worker, so a call reads the sealed reference from the
/// caller's own fields. Any thread, with the worker arguments <see cref="IPlacementPolicy"/> describes.
/// </remarks>
internal readonly struct Placement
{
    /// <summary>The policy if it is the default one, else null.</summary>
    private readonly WorkStealingPolicy? _workStealing;

    internal Placement(IPlacementPolicy policy)
    {
        Policy = policy;
        _workStealing = policy as WorkStealingPolicy;
    }

    /// <summary>Gets the policy.</summary>
    internal IPlacementPolicy Policy { get; }

    /// <inheritdoc cref="IPlacementPolicy.Steals"/>
    internal bool Steals => Policy.Steals;

    /// <inheritdoc cref="IPlacementPolicy.Pins"/>
    internal bool Pins => Policy.Pins;

    /// <inheritdoc cref="IPlacementPolicy.HomeOf"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal int HomeOf(long id, Worker? spawner) => _workStealing is { } workStealing ? workStealing.HomeOf(id, spawner) : Policy.HomeOf(id, spawner);

    /// <inheritdoc cref="IPlacementPolicy.Spawned"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void Spawned(GreenThread thread, Worker? spawner)
    {
        if (_workStealing is { } workStealing)
        {
            workStealing.Spawned(thread, spawner);
        }
        else
        {
            Policy.Spawned(thread, spawner);
        }
    }

    /// <inheritdoc cref="IPlacementPolicy.Woken"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void Woken(GreenThread thread, Worker? waker)
    {
        if (_workStealing is { } workStealing)
        {
            workStealing.Woken(thread, waker);
        }
        else
        {
            Policy.Woken(thread, waker);
        }
    }

    /// <inheritdoc cref="IPlacementPolicy.WokenAlongside"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void WokenAlongside(GreenThread thread, Worker? waker)
    {
        if (_workStealing is { } workStealing)
        {
            workStealing.WokenAlongside(thread, waker);
        }
        else
        {
            Policy.WokenAlongside(thread, waker);
        }
    }

    /// <inheritdoc cref="IPlacementPolicy.TurnStarting"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long TurnStarting(GreenThread thread, Worker worker) => _workStealing is { } workStealing ? workStealing.TurnStarting(thread, worker) : Policy.TurnStarting(thread, worker);

    /// <inheritdoc cref="IPlacementPolicy.Yielded"/>
    internal void Yielded(GreenThread thread, Worker worker) => Policy.Yielded(thread, worker);

    /// <inheritdoc cref="IPlacementPolicy.Overflowed"/>
    internal void Overflowed(GreenThread thread, Worker worker, bool wake) => Policy.Overflowed(thread, worker, wake);

    /// <inheritdoc cref="IPlacementPolicy.Weighed"/>
    internal void Weighed(GreenThread thread, long ticks) => Policy.Weighed(thread, ticks);
}
