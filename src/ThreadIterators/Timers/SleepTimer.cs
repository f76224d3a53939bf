using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The timer entry of one <see cref="SleepEvent"/>: holds the sleeping thread from its park until the deadline, then
/// makes it ready.
/// </summary>
/// <remarks>
/// <para>
/// Claimed by the worker parking a thread on the sleep (<see cref="TryClaim"/>); fired on the timer queue's firing
/// thread; released by the disposing thread (<see cref="Release"/>); cancelled by a stop (<see cref="TryInterrupt"/>,
/// any thread).
/// </para>
/// <para>A sleep, step by step:</para>
/// <list type="number">
/// <item>The sleep's <c>Park</c> claims its entry for the thread with a compare-and-swap; a second thread sleeping on
/// the same event object at once gets a fresh entry, linked behind the first for good (<see cref="Next"/>).</item>
/// <item>It schedules the entry the sleep's duration from the park, which is the yield, or the start of the next turn
/// when the step budget ran out at the yield (a deferred park).</item>
/// <item><see cref="Fire"/> clears the claim, then makes the thread ready (<c>Scheduler.Ready</c>: from outside the
/// workers, the inject queue); once ready, the thread may yield the same sleep again at once, on another worker.</item>
/// <item>A disposal drops the claim (<see cref="Release"/>); a stop cancels the entry under the queue's lock, then drops
/// it (<see cref="TryInterrupt"/>).</item>
/// </list>
/// <para>
/// A sleep of zero gives up the turn instead, as <c>Event.Yield</c> does. A sleep that is a branch of a choice, or the
/// deadline of a timed event, uses the branch's lazy entry instead of this one (<see cref="TimeBranchTimer"/>).
/// </para>
/// </remarks>
internal sealed class SleepTimer : TimerEntry
{
    /// <summary>The thread sleeping on this entry, from its park until <see cref="Fire"/> takes it; null while none does.</summary>
    private GreenThread? _sleeper;

    /// <summary>
    /// Another entry of the same sleep, for a second thread sleeping on it at once; linked once, never unlinked, so a
    /// stop can find the entry its thread sleeps on.
    /// </summary>
    internal SleepTimer? Next;

    /// <summary>Gets the thread sleeping on this entry, if any.</summary>
    internal GreenThread? Sleeper => Volatile.Read(ref _sleeper);

    /// <summary>Makes <paramref name="thread"/> this entry's sleeper, unless another thread sleeps on it right now.</summary>
    internal bool TryClaim(GreenThread thread) => Interlocked.CompareExchange(ref _sleeper, thread, null) is null;

    /// <summary>Forgets <paramref name="thread"/> if it is the sleeper: its scheduler disposed it while it slept.</summary>
    internal void Release(GreenThread thread) => Interlocked.CompareExchange(ref _sleeper, null, thread);

    /// <summary>
    /// For a stop of <paramref name="thread"/>, the sleeper: cancels the deadline before it fires and frees the entry;
    /// true if this call did, and the thread's wake-up is the caller's. False if the deadline has fired (its wake-up is
    /// on its way) or is not scheduled yet (the sleeping worker then sees the stop). Any thread.
    /// </summary>
    internal bool TryInterrupt(GreenThread thread, TimerQueue timers)
    {
        if (!timers.CancelUnderLock(this))
        {
            return false;
        }

        Release(thread);
        return true;
    }

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
