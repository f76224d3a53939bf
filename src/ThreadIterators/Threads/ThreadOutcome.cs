namespace ThreadIterators;

/// <summary>How a green thread ended, or that it has not: <see cref="GreenThread.Outcome"/>.</summary>
public enum ThreadOutcome
{
    /// <summary>The thread has not ended: it is queued, running or parked, and has no outcome yet.</summary>
    Running,

    /// <summary>The body ran to its end (or to a <c>yield break</c>).</summary>
    Completed,

    /// <summary>An exception ended the thread; <see cref="GreenThread.Exception"/> holds it.</summary>
    Faulted,

    /// <summary>
    /// An <see cref="System.OperationCanceledException"/> ended the thread: <see cref="GreenThread.Stop"/> stopped it
    /// (a <see cref="GreenThreadStoppedException"/>), its scheduler was disposed while the thread was parked or queued,
    /// or the body threw one itself (a cancelled token). <see cref="GreenThread.Exception"/> holds it. Named as
    /// <see cref="System.Threading.Tasks.TaskStatus.Canceled"/> is.
    /// </summary>
    Canceled,
}
