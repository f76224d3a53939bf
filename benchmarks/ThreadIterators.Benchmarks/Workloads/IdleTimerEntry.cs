namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// A timer entry of the size the runtime's own are meant to be: the queue's bookkeeping plus two references (a sleep's
/// entry holds one, the thread). Scheduled an hour out in the benchmarks, so it never fires; firing it is a bug.
/// </summary>
/// <remarks>The benchmark's thread schedules and cancels it.</remarks>
internal sealed class IdleTimerEntry : TimerEntry
{
    /// <summary>Stands for what an entry's owner keeps (the thread to wake).</summary>
    private readonly object? _first;

    /// <summary>Stands for a second reference (an owner's event, say).</summary>
    private readonly object? _second;

    internal IdleTimerEntry(object? first = null, object? second = null)
    {
        _first = first;
        _second = second;
    }

    internal override void Fire() => throw new System.InvalidOperationException($"A benchmark timer entry fired ({_first}, {_second}): its deadline is an hour out.");
}
