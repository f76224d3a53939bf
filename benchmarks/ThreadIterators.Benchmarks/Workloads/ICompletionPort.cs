namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// How an outside completion reaches a green completer parked waiting for it: the seam between the OS thread that
/// completes and the green thread that waits. <see cref="TaskCompletionPort"/> completes the task the completer waits
/// on, which makes it ready through the scheduler's inject queue, as any I/O completion does.
/// </summary>
internal interface ICompletionPort
{
    /// <summary>Gets the value of the completion the completer was woken for; green side, after the event of <see cref="Next"/> resumed it.</summary>
    long Value { get; }

    /// <summary>Completes with <paramref name="value"/>: a Stopwatch timestamp, or -1 to end the completer. Called on a plain OS thread.</summary>
    void Complete(long value);

    /// <summary>Gets the event the completer yields to wait for the next completion; green side.</summary>
    Event Next();
}
