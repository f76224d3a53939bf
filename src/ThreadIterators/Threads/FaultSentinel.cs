using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Reports a green thread's fault that nothing observed, the way the runtime reports unobserved task exceptions:
/// when the thread's handle is collected, or when the scheduler is disposed, whichever comes first. Observing the
/// fault (joining, waiting, awaiting, reading the exception) suppresses it. Exists only for faulted threads, and for
/// faulted tasks a green thread waited for with a task event (<see cref="TaskWait"/>): collected with the event,
/// suppressed when the body reads the outcome.
/// </summary>
/// <remarks>Any thread; the finalizer runs on the finalizer thread.</remarks>
[SuppressMessage("Usage", "CA1816:Dispose methods should call SuppressFinalize", Justification = "The finalizer exists to report; observing or reporting the fault is what makes it unnecessary, not disposal.")]
internal sealed class FaultSentinel
{
    /// <summary>The thread that faulted.</summary>
    private readonly GreenThread _thread;

    /// <summary>The fault.</summary>
    private readonly Exception _exception;

    /// <summary>1 once reported or suppressed.</summary>
    private int _done;

    internal FaultSentinel(GreenThread thread, Exception exception)
    {
        _thread = thread;
        _exception = exception;
    }

    ~FaultSentinel() => Report();

    /// <summary>Marks the fault observed; it will not be reported.</summary>
    internal void Suppress()
    {
        if (Interlocked.Exchange(ref _done, 1) == 0)
        {
            GC.SuppressFinalize(this);
        }
    }

    /// <summary>Reports the fault unless it was observed or reported already.</summary>
    internal void Report()
    {
        if (Interlocked.Exchange(ref _done, 1) == 0)
        {
            GC.SuppressFinalize(this);
            _thread.Scheduler.ReportUnobserved(_thread, _exception);
        }
    }
}
