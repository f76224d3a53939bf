namespace ThreadIterators;

/// <summary>
/// Marks an exit target whose watch does not count as observing a fault: it only tidies up after the thread or passes
/// its end on (a supervisor's bookkeeping of its own thread, a package's link to a process on another machine), so
/// the fault must still reach whoever joins the thread or, failing that, <see cref="Scheduler.UnobservedFault"/>.
/// A watch whose target (an <see cref="IMessageTarget{T}"/> of <see cref="ThreadExit"/>) implements this interface
/// is such a watch.
/// </summary>
public interface IUnobservingTarget
{
}
