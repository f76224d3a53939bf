using Microsoft.CodeAnalysis;

namespace ThreadIterators.Analyzers;

/// <summary>The diagnostics the package's analyzer reports; docs/analyzer.md describes each with an example.</summary>
/// <remarks>
/// Each is created with <c>new DiagnosticDescriptor(...)</c>, not a target-typed <c>new(...)</c>: the release tracking
/// of Microsoft.CodeAnalysis.Analyzers 3.3.3 does not recognize the latter and reports the ids of
/// AnalyzerReleases.Unshipped.md as unused (RS2002).
/// </remarks>
internal static class Descriptors
{
    /// <summary>TI0001: a green-thread body calls an API that blocks the OS thread it runs on.</summary>
    public static readonly DiagnosticDescriptor BlockingCall = new DiagnosticDescriptor(
        id: "TI0001",
        title: "Blocking call in a green-thread body",
        messageFormat: "'{0}' blocks the worker running green-thread body '{1}'; {2}",
        category: "Usage",
        defaultSeverity: DiagnosticSeverity.Warning,
        isEnabledByDefault: true,
        description: "A green-thread body runs on a scheduler worker, an OS thread shared by many green threads. A "
            + "blocking wait there (Task.Result, Task.Wait, Thread.Sleep, Monitor.Wait, a wait handle, GreenThread.Wait) "
            + "stops every green thread queued on that worker until it returns, and can deadlock the scheduler. Yield an "
            + "event instead: task.AsEvent(), Event.Sleep, thread.Exited, or TaskEvent.RunBlocking for a call that has no "
            + "asynchronous form.");

    /// <summary>TI0002: a green-thread body creates an event and drops it without yielding it.</summary>
    public static readonly DiagnosticDescriptor UnyieldedEvent = new DiagnosticDescriptor(
        id: "TI0002",
        title: "Event created but never yielded",
        messageFormat: "'{0}' creates an event that green-thread body '{1}' never yields; {2}",
        category: "Usage",
        defaultSeverity: DiagnosticSeverity.Warning,
        isEnabledByDefault: true,
        description: "An event only waits while a green thread yields it. A Put that is not yielded sends its message "
            + "only if the mailbox has room at that moment and otherwise drops it without an error; a Recv, a Sleep or "
            + "a task event that is not yielded waits for nothing. Yield the event where it is created (yield return "
            + "box.Put(message)), or discard it explicitly (_ = ...) where not waiting is the intent.");
}
