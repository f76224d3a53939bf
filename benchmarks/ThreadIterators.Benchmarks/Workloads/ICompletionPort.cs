namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// How an outside completion reaches a green completer parked waiting for it: the seam between the OS thread that
/// completes and the green thread that waits. <see cref="MailboxCompletionPort"/> sends into the completer's mailbox;
/// from a plain OS thread that makes the parked receiver ready through the scheduler's inject queue, the way a task
/// completion will. A port whose completer yields an event that waits on a task can replace it without touching the
/// rest of the run.
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
