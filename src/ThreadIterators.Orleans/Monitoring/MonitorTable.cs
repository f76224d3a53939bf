using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;
using Orleans;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// The monitors this silo has set on processes anywhere in the cluster. Any thread.
/// </summary>
/// <remarks>
/// The steps of a monitor, each written once, here or in the type named:
/// <list type="number">
/// <item><b>Set.</b> <see cref="Add"/> keeps the monitor and asks the process's grain to watch for it
/// (<see cref="IProcessGrain.Monitor"/>), naming this silo's observer; the grain answers with the silo the process runs
/// on, or that none runs (the monitor fires <see cref="ProcessExitReason.NoProcess"/>).</item>
/// <item><b>End.</b> When the process ends, its grain tells every watching silo's observer
/// (<see cref="NodeObserver"/>), which fires the monitor with the outcome.</item>
/// <item><b>Node down.</b> When Orleans' membership declares a silo dead (<see cref="MembershipWatch"/>), every monitor
/// of a process on it fires <see cref="ProcessExitReason.NodeDown"/>; a monitor whose answer names a silo already dead
/// fires at once. The host's recording and the dead silos' are under one lock, so neither misses the other.</item>
/// <item><b>Remove.</b> <see cref="ProcessMonitor.Remove"/> drops it here and tells the grain.</item>
/// <item><b>Linker down.</b> A link's monitor names its silo to the grain, which keeps it with the process
/// (<see cref="LocalProcess.AddLinker"/>): when Orleans' membership declares that silo dead, the process's own silo
/// stops the process (<see cref="ProcessNode.LinkersGone"/>), as Erlang's <c>noconnection</c> exit signal stops a
/// process linked across nodes; a link named after its silo is already declared dead stops it at once.</item>
/// </list>
/// A monitor fires once (its own state says so), whichever of these comes first.
/// </remarks>
internal sealed partial class MonitorTable
{
    private readonly ConcurrentDictionary<Guid, ProcessMonitor> _live = new();
    private readonly HashSet<SiloAddress> _dead = [];
    private readonly object _gate = new();

    internal MonitorTable(ProcessNode node) => Node = node;

    internal ProcessNode Node { get; }

    /// <summary>Sets a monitor of <paramref name="name"/> (step 1).</summary>
    internal ProcessMonitor Add(string name, IMessageTarget<ProcessDown> target, bool forLink = false)
    {
        var monitor = Create(name, target, forLink);
        Start(monitor);
        return monitor;
    }

    /// <summary>Makes a monitor and keeps it, without asking the grain yet: for a caller that starts it outside its own lock.</summary>
    internal ProcessMonitor Create(string name, IMessageTarget<ProcessDown> target, bool forLink = false)
    {
        var monitor = new ProcessMonitor(this, name, target, forLink);
        _live[monitor.Id] = monitor;
        return monitor;
    }

    /// <summary>Asks the grain to watch for a monitor made by <see cref="Create"/>; its answer may fire the monitor at once.</summary>
    internal void Start(ProcessMonitor monitor) => _ = SetAsync(monitor);

    /// <summary>A process's grain says the process a monitor watches has ended (step 2).</summary>
    internal void Exited(Guid monitor, ProcessExitInfo exit)
    {
        if (_live.TryGetValue(monitor, out var found))
        {
            found.Fire(exit.Reason, exit.Detail, exit.Silo);
        }
    }

    /// <summary>Orleans declared <paramref name="silo"/> dead (step 3).</summary>
    internal void NodeDown(SiloAddress silo)
    {
        List<ProcessMonitor> gone;
        lock (_gate)
        {
            if (!_dead.Add(silo))
            {
                return;
            }

            gone = _live.Values.Where(monitor => silo.Equals(monitor.Host)).ToList();
        }

        LogNodeDown(Node.Logger, silo, gone.Count);
        foreach (var monitor in gone)
        {
            monitor.Fire(ProcessExitReason.NodeDown, $"silo {silo} left the cluster", silo.ToString());
        }

        // After the silo is counted dead: a link the grain records from now on finds it so (step 5).
        Node.LinkersGone(silo);
    }

    /// <summary>Gets whether Orleans' membership has declared <paramref name="silo"/> dead, as this silo has read it.</summary>
    internal bool IsDead(SiloAddress silo)
    {
        lock (_gate)
        {
            return _dead.Contains(silo);
        }
    }

    /// <summary>Gets the silo a monitor's process runs on, once its grain has answered; for tests.</summary>
    /// <summary>Gets the incarnation the monitor watches, or empty if the process's grain has not answered yet.</summary>
    internal Guid IncarnationOf(ProcessMonitor monitor)
    {
        lock (_gate)
        {
            return monitor.Incarnation;
        }
    }

    internal SiloAddress? HostOf(ProcessMonitor monitor)
    {
        lock (_gate)
        {
            return monitor.Host;
        }
    }

    internal void Fired(ProcessMonitor monitor) => _live.TryRemove(monitor.Id, out _);

    /// <summary>
    /// A monitor was taken back (step 4): the grain is told once its answer to the monitor has come, so that the
    /// forgetting never reaches it before the watching.
    /// </summary>
    internal void Removed(ProcessMonitor monitor)
    {
        _live.TryRemove(monitor.Id, out _);
        bool answered;
        lock (_gate)
        {
            answered = monitor.Answered;
        }

        if (answered)
        {
            Demonitor(monitor);
        }
    }

    private void Demonitor(ProcessMonitor monitor)
    {
        try
        {
            _ = Node.Grains.GetGrain<IProcessGrain>(monitor.Name).Demonitor(monitor.Id);
        }
        catch (Exception exception)
        {
            // The grain forgets it anyway when its process ends; telling it early only saves it a message.
            LogDemonitorFailed(Node.Logger, monitor.Name, exception);
        }
    }

    private async Task SetAsync(ProcessMonitor monitor)
    {
        MonitorReply reply;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                reply = await Node.Grains.GetGrain<IProcessGrain>(monitor.Name).Monitor(monitor.Id, Node.Observer, monitor.ForLink ? Node.SiloAddressIfSilo : null).ConfigureAwait(false);
                break;
            }
            catch (OrleansMessageRejectionException) when (attempt < 10)
            {
                // The activation it reached was going away: asked again, of wherever the name is now.
                await Task.Delay(TimeSpan.FromMilliseconds(50 * attempt)).ConfigureAwait(false);
            }
            catch (Exception exception)
            {
                // The grain could not be reached: nothing can be known of the process, as when its node is down.
                LogMonitorFailed(Node.Logger, monitor.Name, exception);
                monitor.Fire(ProcessExitReason.NodeDown, $"its grain could not be reached: {exception.Message}", silo: null);
                return;
            }
        }

        bool removed;
        lock (_gate)
        {
            monitor.Answered = true;
            removed = monitor.IsRemoved;
        }

        if (removed)
        {
            // Taken back while the grain was being asked: told now, after its answer.
            Demonitor(monitor);
            return;
        }

        if (!reply.Running)
        {
            monitor.Fire(ProcessExitReason.NoProcess, detail: null, silo: null);
            return;
        }

        bool dead;
        lock (_gate)
        {
            monitor.Host = reply.Silo;
            monitor.Incarnation = reply.Incarnation;
            dead = reply.Silo is not null && _dead.Contains(reply.Silo);
        }

        if (dead)
        {
            monitor.Fire(ProcessExitReason.NodeDown, $"silo {reply.Silo} left the cluster", reply.Silo!.ToString());
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Silo {Silo} left the cluster: {Count} monitors of its processes fire")]
    private static partial void LogNodeDown(ILogger logger, SiloAddress silo, int count);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The monitor of process {Name} could not be set, and fires")]
    private static partial void LogMonitorFailed(ILogger logger, string name, Exception exception);

    [LoggerMessage(Level = LogLevel.Debug, Message = "The grain of process {Name} could not be told that a monitor was removed")]
    private static partial void LogDemonitorFailed(ILogger logger, string name, Exception exception);
}
