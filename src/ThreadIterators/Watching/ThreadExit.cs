using System;

namespace ThreadIterators;

/// <summary>
/// The message a green thread's end sends: to a <see cref="ThreadWatch"/>'s target (Erlang's <c>'DOWN'</c> message,
/// Akka.NET's <c>Terminated</c>), or to the exit target of a linked thread that traps exits (Erlang's
/// <c>'EXIT'</c> message; see <see cref="GreenThreadWatching.TrapExits"/>).
/// </summary>
/// <remarks>A value, so sending it allocates nothing; immutable.</remarks>
public readonly struct ThreadExit
{
    internal ThreadExit(GreenThread thread, ThreadOutcome outcome, Exception? exception, ThreadWatch? watch)
    {
        Thread = thread;
        Outcome = outcome;
        Exception = exception;
        Watch = watch;
    }

    /// <summary>Gets the thread that ended.</summary>
    public GreenThread Thread { get; }

    /// <summary>Gets how it ended: <see cref="ThreadOutcome.Completed"/>, <see cref="ThreadOutcome.Faulted"/> or <see cref="ThreadOutcome.Canceled"/>.</summary>
    public ThreadOutcome Outcome { get; }

    /// <summary>Gets the exception that ended it (for a stop, its <see cref="GreenThreadStoppedException"/>), or null for a normal end.</summary>
    public Exception? Exception { get; }

    /// <summary>Gets the watch that sent this message, or null if a link did.</summary>
    public ThreadWatch? Watch { get; }

    /// <summary>Gets a value indicating whether the thread ended abnormally: faulted or canceled, the ends a link passes on.</summary>
    public bool IsAbnormal => Outcome is ThreadOutcome.Faulted or ThreadOutcome.Canceled;

    /// <inheritdoc/>
    public override string ToString() => Exception is null ? $"{Thread} ended {Outcome}" : $"{Thread} ended {Outcome}: {Exception.Message}";
}
