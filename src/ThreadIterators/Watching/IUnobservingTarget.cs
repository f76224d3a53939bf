namespace ThreadIterators;

/// <summary>
/// Marks a runtime-internal exit target whose watch does not count as observing a fault: it only tidies up after the
/// thread (a supervisor's bookkeeping of its own thread), so the fault must still reach whoever joins the thread or,
/// failing that, <see cref="Scheduler.UnobservedFault"/>.
/// </summary>
internal interface IUnobservingTarget
{
}
