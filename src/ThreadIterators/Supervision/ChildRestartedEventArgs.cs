using System;
using System.Collections.Generic;

namespace ThreadIterators.Supervision;

/// <summary>
/// A restart a <see cref="Supervisor"/> made (<see cref="Supervisor.Restarted"/>): which child's end caused it, which
/// children it started again, and how long it waited first.
/// </summary>
public sealed class ChildRestartedEventArgs : EventArgs
{
    internal ChildRestartedEventArgs(string childId, ThreadExit exit, IReadOnlyList<string> restarted, TimeSpan delay)
    {
        ChildId = childId;
        Exit = exit;
        Restarted = restarted;
        Delay = delay;
    }

    /// <summary>Gets the id of the child whose end caused the restart.</summary>
    public string ChildId { get; }

    /// <summary>Gets how that child ended.</summary>
    public ThreadExit Exit { get; }

    /// <summary>Gets the ids of the children started again, in start order: that child alone under <see cref="SupervisionStrategy.OneForOne"/>.</summary>
    public IReadOnlyList<string> Restarted { get; }

    /// <summary>Gets how long the supervisor waited before starting them (its <see cref="SupervisorOptions.Backoff"/>), or zero.</summary>
    public TimeSpan Delay { get; }

    /// <inheritdoc/>
    public override string ToString() => $"restarted [{string.Join(", ", Restarted)}] after {Exit}{(Delay > TimeSpan.Zero ? $", waiting {Delay}" : string.Empty)}";
}
