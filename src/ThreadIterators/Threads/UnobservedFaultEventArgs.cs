using System;

namespace ThreadIterators;

/// <summary>
/// Describes a green thread that ended with an exception nothing was waiting for, or a task's exception a green thread
/// waited for and never read; see <see cref="Scheduler.UnobservedFault"/>.
/// </summary>
/// <remarks>Immutable; raised on the finalizer thread, the disposing thread or a worker.</remarks>
public sealed class UnobservedFaultEventArgs : EventArgs
{
    internal UnobservedFaultEventArgs(GreenThread thread, Exception exception)
    {
        Thread = thread;
        Exception = exception;
    }

    /// <summary>Gets the thread that faulted, or that waited for the faulted task.</summary>
    public GreenThread Thread { get; }

    /// <summary>Gets the exception.</summary>
    public Exception Exception { get; }
}
