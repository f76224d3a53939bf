using System;

namespace ThreadIterators.Supervision;

/// <summary>A <see cref="Supervisor"/> giving up (<see cref="Supervisor.GaveUp"/>), raised once its children are shut down, just before it ends faulted.</summary>
public sealed class SupervisorGaveUpEventArgs : EventArgs
{
    internal SupervisorGaveUpEventArgs(SupervisorGaveUpException exception) => Exception = exception;

    /// <summary>Gets the exception the supervisor's thread ends with.</summary>
    public SupervisorGaveUpException Exception { get; }

    /// <inheritdoc/>
    public override string ToString() => Exception.Message;
}
