namespace ThreadIterators.Orleans;

/// <summary>
/// The message a monitor sends once its process is gone (<see cref="ProcessRef{T}.Monitor"/>): Erlang's
/// <c>{'DOWN', Ref, process, {Name, Node}, Reason}</c>.
/// </summary>
public sealed class ProcessDown
{
    internal ProcessDown(ProcessMonitor monitor, ProcessExitReason reason, string? detail, string? silo)
    {
        Monitor = monitor;
        Reason = reason;
        Detail = detail;
        Silo = silo;
    }

    /// <summary>Gets the monitor that sent this message.</summary>
    public ProcessMonitor Monitor { get; }

    /// <summary>Gets the name of the process that is gone.</summary>
    public string Name => Monitor.Name;

    /// <summary>Gets why it is gone.</summary>
    public ProcessExitReason Reason { get; }

    /// <summary>Gets the exception's type and message, for a fault; the stop's reason, for a stop; else null.</summary>
    public string? Detail { get; }

    /// <summary>Gets the address of the silo it ran on, if it was running.</summary>
    public string? Silo { get; }

    /// <inheritdoc/>
    public override string ToString() =>
        $"process \"{Name}\" is gone ({Reason}{(Detail is null ? string.Empty : $": {Detail}")}){(Silo is null ? string.Empty : $", on silo {Silo}")}";
}
