using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace ThreadIterators.Tests;

/// <summary>
/// Turns a failed <c>Debug.Assert</c> of the library (DEBUG builds) into an <see cref="InvariantFailedException"/>
/// thrown where the invariant broke, instead of the default fail-fast that would end the test run without saying which
/// test broke it. Thrown on a worker inside a turn, it faults that green thread, which the test then sees; thrown
/// anywhere else on a worker, it ends the process. Either way the run fails, with the invariant's sentence.
/// </summary>
internal sealed class InvariantListener : TraceListener
{
    [ModuleInitializer]
    [SuppressMessage("Usage", "CA2255:The 'ModuleInitializer' attribute should not be used in libraries", Justification = "A test assembly: every test must run with the listener in place, before any test code.")]
    internal static void Install()
    {
        Trace.Listeners.Clear();
        Trace.Listeners.Add(new InvariantListener());
    }

    public override void Fail(string? message, string? detailMessage)
    {
        Console.Error.WriteLine($"Invariant failed: {message} {detailMessage}");
        throw new InvariantFailedException(message);
    }

    public override void Write(string? message)
    {
    }

    public override void WriteLine(string? message)
    {
    }
}
