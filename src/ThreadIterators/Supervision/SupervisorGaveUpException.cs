using System;
using System.Diagnostics.CodeAnalysis;

namespace ThreadIterators.Supervision;

/// <summary>
/// What a <see cref="Supervisor"/>'s thread ends with when a restart would exceed its intensity
/// (<see cref="SupervisorOptions.MaxRestarts"/> within <see cref="SupervisorOptions.Period"/>): its own supervisor
/// sees it as a child's fault, which gives supervision trees. The inner exception is the one that ended the child
/// whose restart was refused, if it had one.
/// </summary>
[SuppressMessage("Design", "CA1032:Implement standard exception constructors", Justification = "Only a supervisor makes it, with what it gave up on.")]
public sealed class SupervisorGaveUpException : Exception
{
    internal SupervisorGaveUpException(Supervisor supervisor, ThreadExit exit, string childId, int maxRestarts, TimeSpan period)
        : base($"{supervisor} gave up: child '{childId}' ({exit}) would be restart {maxRestarts + 1} within {period}, more than its intensity of {maxRestarts}.", exit.Exception)
    {
        SupervisorName = supervisor.Name;
        ChildId = childId;
        MaxRestarts = maxRestarts;
        Period = period;
    }

    /// <summary>Gets the name of the supervisor that gave up, if it has one.</summary>
    public string? SupervisorName { get; }

    /// <summary>Gets the id of the child whose restart was refused.</summary>
    public string ChildId { get; }

    /// <summary>Gets the supervisor's intensity: the restarts it allows within <see cref="Period"/>.</summary>
    public int MaxRestarts { get; }

    /// <summary>Gets the period the intensity counts over.</summary>
    public TimeSpan Period { get; }
}
