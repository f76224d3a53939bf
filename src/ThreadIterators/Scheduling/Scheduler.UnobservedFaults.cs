using System;
using System.Collections.Generic;
using System.Diagnostics.Tracing;

namespace ThreadIterators;

// Unobserved faults: a green thread that ended with an exception nothing waited for or read. Tracked weakly while the
// thread's handle lives (FaultSentinel reports from its finalizer), and reported at the latest when the scheduler is
// disposed, so no fault is lost silently. Any thread.
public sealed partial class Scheduler
{
    /// <summary>
    /// Tracked faults at which the list drops those already collected (and so already reported by their sentinel)
    /// before it grows: keeps a long-lived scheduler's list short without a sweep per fault. Guessed.
    /// </summary>
    private const int PruneUnobservedAt = 64;

    /// <summary>Faults nothing has observed yet, reported at disposal if still unobserved. Guarded by locking the list.</summary>
    private readonly List<WeakReference<FaultSentinel>> _unobserved = [];

    /// <summary>
    /// Raised for a green thread that ended with an exception nothing observed: no green thread yielded its
    /// <see cref="GreenThread.Exited"/> or <see cref="GreenThread.Ended"/>, and nothing called
    /// <see cref="GreenThread.Wait()"/> or <see cref="GreenThread.AsTask"/> or read <see cref="GreenThread.Exception"/>
    /// or <see cref="GreenThread.Outcome"/> (unlike a task's status, the outcome of a faulted thread counts as
    /// observing its fault). Like unobserved task exceptions,
    /// it is raised when the thread's handle is garbage collected, or at the latest when the scheduler is disposed.
    /// Also raised at once for exceptions thrown by <c>finally</c> blocks while a thread is being disposed, and for a
    /// task's exception that a green thread waited for with a <see cref="TaskEvent"/> or <see cref="TaskEvent{T}"/>
    /// and never read: at once when the event is armed again, otherwise when the event is garbage collected or at
    /// the latest when the scheduler is disposed.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Raised on the finalizer thread, the disposing thread, or a worker. Without a handler the fault is written to
    /// standard error, so it is never lost silently.
    /// </para>
    /// <para>
    /// A handler that throws does not end the process, unlike an exception escaping .NET's
    /// <see cref="System.Threading.Tasks.TaskScheduler.UnobservedTaskException"/> handlers on the finalizer thread:
    /// here a report comes from the finalizer thread, a worker or <see cref="Dispose()"/>, none of which may fail
    /// because of it. The handler's exception and the fault it was given are both written to standard error, and the
    /// reports after it are made as usual (a disposal reports every other fault). The same rule holds for every
    /// handler the scheduler calls: <see cref="LongTurn"/> and <see cref="DeadLetter"/>.
    /// </para>
    /// </remarks>
    public event EventHandler<UnobservedFaultEventArgs>? UnobservedFault;

    /// <summary>Remembers a fault that nothing has observed yet, so disposal can report it.</summary>
    internal void TrackUnobserved(FaultSentinel sentinel)
    {
        lock (_unobserved)
        {
            if (_unobserved.Count >= PruneUnobservedAt)
            {
                _unobserved.RemoveAll(w => !w.TryGetTarget(out _));
            }

            _unobserved.Add(new WeakReference<FaultSentinel>(sentinel));
        }
    }

    internal void ReportUnobserved(GreenThread thread, Exception exception)
    {
        if (ThreadIteratorsEventSource.Log.IsEnabled(EventLevel.Error, ThreadIteratorsEventSource.Keywords.Faults))
        {
            ThreadIteratorsEventSource.Log.UnobservedFault(ToString(), thread.ToString(), $"{exception.GetType().FullName}: {exception.Message}");
        }

        var handler = UnobservedFault;
        if (handler is null)
        {
            Console.Error.WriteLine($"ThreadIterators: unobserved fault in {thread}: {exception}");
            return;
        }

        try
        {
            handler(this, new UnobservedFaultEventArgs(thread, exception));
        }
        catch (Exception thrown)
        {
            // Neither the finalizer thread, nor a worker, nor a disposal may fail because of a handler; see UnobservedFault.
            Console.Error.WriteLine($"ThreadIterators: an {nameof(UnobservedFault)} handler of {this} threw {thrown}{Environment.NewLine}while given the unobserved fault of {thread}: {exception}");
        }
    }

    /// <summary>Reports every tracked fault still unobserved; at disposal.</summary>
    private void ReportPendingUnobserved()
    {
        WeakReference<FaultSentinel>[] pending;
        lock (_unobserved)
        {
            pending = [.. _unobserved];
            _unobserved.Clear();
        }

        foreach (var reference in pending)
        {
            if (reference.TryGetTarget(out var sentinel))
            {
                sentinel.Report();
            }
        }
    }
}
