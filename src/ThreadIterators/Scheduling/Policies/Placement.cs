using System.Runtime.CompilerServices;

namespace ThreadIterators;

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
