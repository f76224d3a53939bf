namespace ThreadIterators;

/// <summary>
/// A branch registered for one wait, for events whose waker may fire long after the wait is over (a task's
/// continuation, a thread's end): the generation travels with the registration, so a late fire reaches nothing.
/// </summary>
/// <remarks>Immutable; any thread. One per registration of such an event.</remarks>
internal sealed class ChoiceTicket
{
    internal ChoiceTicket(ChoiceBranch branch, long generation)
    {
        Branch = branch;
        Generation = generation;
    }

    /// <summary>Gets the branch to fire.</summary>
    internal ChoiceBranch Branch { get; }

    /// <summary>Gets the wait the registration was made for.</summary>
    internal long Generation { get; }

    /// <summary>Gets a value indicating whether the registration's wait is still on with no branch chosen. Any thread.</summary>
    internal bool IsOpen => Branch.Choice.IsOpen(Generation);

    /// <summary>
    /// Fires the branch for the registration's wait; a fire after that wait is over does nothing. Any thread. In a
    /// driven run that seeds outside work, a fire from another OS thread (a task's continuation, a token's
    /// callback) would choose the branch at a moment of real time; it is handed to the run instead, which fires it
    /// when its strategy takes it, so which branch wins does not depend on that moment.
    /// </summary>
    internal void Fire(bool alongside = false)
    {
        if (Branch.Choice.Owner is { Scheduler.Controller: { SeedsOutsideWork: true } controller } owner && OsThreadContext.Current.Worker is null)
        {
            controller.HoldFire(owner, this);
            return;
        }

        Branch.Fire(Generation, alongside);
    }
}
