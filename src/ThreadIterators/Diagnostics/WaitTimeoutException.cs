using System;
using System.Diagnostics.CodeAnalysis;

namespace ThreadIterators;

/// <summary>
/// Thrown by <see cref="WaitDiagnostics.WaitForAllOrThrow"/> and <see cref="WaitDiagnostics.WaitOrThrow"/> when the timeout
/// passes first. Its message holds the scheduler's <see cref="WaitGraph"/>, taken as the timeout passed: who waits on
/// whom, and any cycle of waits (a deadlock), so a hung test or shutdown says why it hung.
/// </summary>
[SuppressMessage("Design", "CA1032:Implement standard exception constructors", Justification = "Only the runtime makes it, with the graph it reports; a public constructor would let code report a graph that was never taken.")]
public sealed class WaitTimeoutException : TimeoutException
{
    internal WaitTimeoutException(string what, WaitGraph waits)
        : base($"{what}{Environment.NewLine}{waits}")
    {
        Waits = waits;
    }

    /// <summary>Gets the wait-for graph taken when the timeout passed.</summary>
    public WaitGraph Waits { get; }
}
