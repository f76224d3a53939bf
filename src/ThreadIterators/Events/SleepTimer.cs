using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The timer entry of one <see cref="SleepEvent"/>: holds the sleeping thread from its park until the deadline, then
/// makes it ready.
/// </summary>
/// <remarks>
/// Claimed by the worker parking a thread on the sleep (<see cref="TryClaim"/>); fired on the timer queue's firing
/// thread; released by the disposing thread (<see cref="Release"/>).
/// </remarks>
internal sealed class SleepTimer : TimerEntry
{
    /// <summary>The thread sleeping on this entry, from its park until <see cref="Fire"/> takes it; null while none does.</summary>
    private GreenThread? _sleeper;

    /// <summary>Makes <paramref name="thread"/> this entry's sleeper, unless another thread sleeps on it right now.</summary>
    internal bool TryClaim(GreenThread thread) => Interlocked.CompareExchange(ref _sleeper, thread, null) is null;

    /// <summary>Forgets <paramref name="thread"/> if it is the sleeper: its scheduler disposed it while it slept.</summary>
    internal void Release(GreenThread thread) => Interlocked.CompareExchange(ref _sleeper, null, thread);

    /// <summary>The deadline passed: makes the sleeper ready.</summary>
    internal override void Fire()
    {
        var thread = Volatile.Read(ref _sleeper)!;

        // Cleared before the wake-up: once ready, the thread may yield this sleep again at once, on another worker.
        Volatile.Write(ref _sleeper, null);
        thread.Scheduler.Ready(thread);
    }

    /// <inheritdoc/>
    public override string ToString() => $"the timer of a sleep of {_sleeper?.ToString() ?? "no thread"}";
}
