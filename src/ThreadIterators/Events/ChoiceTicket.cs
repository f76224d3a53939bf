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

    /// <summary>Fires the branch for the registration's wait; a fire after that wait is over does nothing. Any thread.</summary>
    internal void Fire(bool alongside = false) => Branch.Fire(Generation, alongside);
}
