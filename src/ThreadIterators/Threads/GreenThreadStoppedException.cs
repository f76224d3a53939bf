using System;
using System.Diagnostics.CodeAnalysis;

namespace ThreadIterators;

/// <summary>
/// The exception a green thread ends with when <see cref="GreenThread.Stop(object)"/> stopped it: an
/// <see cref="OperationCanceledException"/>, so the thread's <see cref="GreenThread.Outcome"/> is
/// <see cref="ThreadOutcome.Canceled"/>, carrying the reason the stop gave.
/// </summary>
/// <remarks>
/// Joiners see it as they see any end by an exception: <see cref="GreenThread.Exception"/> holds it, a thread that
/// yields <see cref="GreenThread.Exited"/> ends with it, <see cref="GreenThread.Wait()"/> throws it, and
/// <see cref="GreenThread.AsTask"/> is canceled. A stopped thread is never reported through
/// <see cref="Scheduler.UnobservedFault"/>: whoever stopped it asked for its end.
/// </remarks>
[SuppressMessage("Design", "CA1032:Implement standard exception constructors", Justification = "Only GreenThread.Stop makes it, with the thread and the reason; a public constructor would only let code fake a stop.")]
public sealed class GreenThreadStoppedException : OperationCanceledException
{
    internal GreenThreadStoppedException(GreenThread thread, object? reason)
        : base(reason is null ? $"{thread} was stopped." : $"{thread} was stopped: {reason}")
    {
        Reason = reason;
    }

    /// <summary>Gets the reason given to <see cref="GreenThread.Stop(object)"/>, or null if none was.</summary>
    public object? Reason { get; }
}
