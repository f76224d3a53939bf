using System;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// A monitor of a named process, set with <see cref="ProcessRef{T}.Monitor"/>: it sends one <see cref="ProcessDown"/>
/// to its target when the process ends, when its silo leaves the cluster, or at once if no process holds the name.
/// </summary>
/// <remarks>Any thread. <see cref="Remove"/> takes it back; one that has fired is gone already.</remarks>
public sealed class ProcessMonitor
{
    private readonly MonitorTable _table;
    private readonly IMessageTarget<ProcessDown> _target;
    private int _state;

    internal ProcessMonitor(MonitorTable table, string name, IMessageTarget<ProcessDown> target, bool forLink)
    {
        _table = table;
        Name = name;
        _target = target;
        ForLink = forLink;
        Id = Guid.NewGuid();
    }

    /// <summary>Gets the name of the process it monitors.</summary>
    public string Name { get; }

    /// <summary>Gets whether it has sent its <see cref="ProcessDown"/>.</summary>
    public bool HasFired => System.Threading.Volatile.Read(ref _state) == Fired;

    internal Guid Id { get; }

    /// <summary>Gets whether the monitor is a link's (<see cref="ProcessLink"/>): the process's silo then stops the process if this silo dies.</summary>
    internal bool ForLink { get; }

    /// <summary>Gets or sets whether the grain has answered the monitor; under the table's lock.</summary>
    internal bool Answered { get; set; }

    /// <summary>Gets whether it was taken back.</summary>
    internal bool IsRemoved => System.Threading.Volatile.Read(ref _state) == Removed;

    /// <summary>Gets or sets the silo the process runs on, once the process's grain has answered the monitor.</summary>
    internal SiloAddress? Host { get; set; }

    /// <summary>Gets or sets the incarnation of the process watched, once the process's grain has answered; under the table's lock.</summary>
    internal Guid Incarnation { get; set; }

    private const int Live = 0;
    private const int Fired = 1;
    private const int Removed = 2;

    /// <summary>
    /// Takes the monitor back, as Erlang's <c>demonitor</c>: no <see cref="ProcessDown"/> comes from it after this
    /// returns true.
    /// </summary>
    /// <returns>True if it was taken back before it fired; false if it had fired or been taken back already.</returns>
    public bool Remove()
    {
        if (System.Threading.Interlocked.CompareExchange(ref _state, Removed, Live) != Live)
        {
            return false;
        }

        _table.Removed(this);
        return true;
    }

    /// <summary>Sends the monitor's one message, unless it has fired or been taken back. Any thread.</summary>
    internal bool Fire(ProcessExitReason reason, string? detail, string? silo)
    {
        if (System.Threading.Interlocked.CompareExchange(ref _state, Fired, Live) != Live)
        {
            return false;
        }

        _table.Fired(this);
        var message = new ProcessDown(this, reason, detail, silo);
        if (!_target.TrySend(message))
        {
            _table.Node.Scheduler.ReportDeadLetter(message, _target, DeadLetterReason.RefusedByTarget);
        }

        return true;
    }

    /// <inheritdoc/>
    public override string ToString() => $"the monitor of process \"{Name}\"";
}
