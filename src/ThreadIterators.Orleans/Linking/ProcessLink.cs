using System;
using System.Threading;

namespace ThreadIterators.Orleans;

/// <summary>
/// A link between a green thread and a process of the cluster (<see cref="ProcessRef{T}.Link"/>), Erlang's
/// <c>link</c> across nodes: when the process ends abnormally (a fault, a stop, its silo gone, no such process), the
/// thread is stopped with the <see cref="ProcessDown"/> as the reason; when the thread ends abnormally (a fault, a
/// stop), the process is stopped, and its monitors read why. A normal end on either side ends the link and stops
/// nobody.
/// </summary>
/// <remarks>
/// The steps, each written once, here: the link sets a monitor on the process, whose <see cref="ProcessDown"/> comes
/// to <see cref="ProcessGone"/>; and it watches the thread, whose <see cref="ThreadExit"/> comes to
/// <see cref="ThreadEnded"/> on its ending worker. Whichever comes first takes the link (<see cref="_state"/>) and acts; the other then
/// finds it taken. A stop of the process travels through the silo's link to it as a <c>LinkedExit</c>, after the
/// messages this silo sent it before; the thread's silo dying stops it too, from the process's silo (step 5 of
/// MonitorTable.cs). Unlike a local link, a remote link does not honour
/// <see cref="GreenThreadWatching.TrapExits"/>: a thread that wants to hear of the process's end instead uses
/// <see cref="ProcessRef{T}.Monitor"/>.
/// </remarks>
public sealed class ProcessLink
{
    private const int Active = 0;
    private const int Fired = 1;
    private const int Removed = 2;

    private readonly ProcessNode _node;
    private ProcessMonitor? _monitor;
    private ThreadWatch? _watch;
    private int _state;

    private ProcessLink(ProcessNode node, string name, GreenThread thread)
    {
        _node = node;
        Name = name;
        Thread = thread;
    }

    /// <summary>Gets the name of the linked process.</summary>
    public string Name { get; }

    /// <summary>Gets the linked thread.</summary>
    public GreenThread Thread { get; }

    /// <summary>Gets the monitor that watches the process for the link, once set.</summary>
    internal ProcessMonitor? Monitor => Volatile.Read(ref _monitor);

    /// <summary>Gets whether either end has ended, and the link has acted on it.</summary>
    public bool HasFired => Volatile.Read(ref _state) == Fired;

    /// <summary>
    /// Removes the link (Erlang's <c>unlink</c>): once this returns true, neither end's end acts on the other through it.
    /// </summary>
    /// <returns>True if this call removed it; false if it was removed already, or one end acted on it.</returns>
    public bool Remove()
    {
        if (Interlocked.CompareExchange(ref _state, Removed, Active) != Active)
        {
            return false;
        }

        Volatile.Read(ref _monitor)?.Remove();
        Volatile.Read(ref _watch)?.Remove();
        return true;
    }

    /// <inheritdoc/>
    public override string ToString() =>
        $"link of {Thread} to process \"{Name}\" ({Volatile.Read(ref _state) switch { Active => "active", Removed => "removed", _ => "fired" }})";

    /// <summary>
    /// Links <paramref name="thread"/> to process <paramref name="name"/>: sets the monitor, then watches the thread,
    /// whose end is heard on its ending worker, as it is published: before a supervisor watching the same thread can
    /// restart it, so a restarted child's start follows this thread's exit on the link.
    /// </summary>
    internal static ProcessLink Create(ProcessNode node, string name, GreenThread thread)
    {
        var link = new ProcessLink(node, name, thread);
        Volatile.Write(ref link._monitor, node.Monitors.Add(name, new CallbackTarget<ProcessDown>(link.ProcessGone, link.ToString), forLink: true));
        Volatile.Write(ref link._watch, thread.Watch(new CallbackTarget<ThreadExit>(link.ThreadEnded, link.ToString)));
        if (Volatile.Read(ref link._state) != Active)
        {
            // Removed, or fired, as it was being made: what it set goes.
            link._monitor?.Remove();
            link._watch?.Remove();
        }

        return link;
    }

    /// <summary>The process is gone: an abnormal end stops the thread; a normal one ends the link.</summary>
    internal void ProcessGone(ProcessDown down)
    {
        if (Interlocked.CompareExchange(ref _state, Fired, Active) != Active)
        {
            return;
        }

        if (down.Reason != ProcessExitReason.Normal)
        {
            Thread.Stop(down);
        }
        else
        {
            // The thread lives on: nothing of the link stays with it.
            Volatile.Read(ref _watch)?.Remove();
        }
    }

    /// <summary>The thread ended: an abnormal end stops the process; any end removes the monitor.</summary>
    internal void ThreadEnded(ThreadExit exit)
    {
        if (Interlocked.CompareExchange(ref _state, Fired, Active) != Active)
        {
            return;
        }

        Volatile.Read(ref _monitor)?.Remove();
        if (exit.IsAbnormal)
        {
            var cause = exit.Exception is { } fault ? $": {fault.GetType().FullName}: {fault.Message}" : string.Empty;
            _node.SendExit(Name, new LinkedExit
            {
                Detail = $"stopped by its link to {Thread} on {_node}, which ended {exit.Outcome}{cause}",
                Incarnation = Volatile.Read(ref _monitor) is { } monitor ? _node.Monitors.IncarnationOf(monitor) : Guid.Empty,
            });
        }
    }
}
