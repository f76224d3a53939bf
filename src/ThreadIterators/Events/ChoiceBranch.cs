namespace ThreadIterators;

/// <summary>
/// One branch of a <see cref="Choice"/>, as the event it waits on knows it: what a waker fires once the event could
/// complete. Made with the choice, one per branch, so registering a branch allocates nothing.
/// </summary>
/// <remarks>Immutable but for <see cref="Timer"/>, which only the worker running the choice's thread sets; any thread.</remarks>
internal sealed class ChoiceBranch
{
    internal ChoiceBranch(Choice choice, int index)
    {
        Choice = choice;
        Index = index;
    }

    /// <summary>Gets the choice this branch belongs to.</summary>
    internal Choice Choice { get; }

    /// <summary>Gets the branch's position among the choice's events.</summary>
    internal int Index { get; }

    /// <summary>
    /// Gets or sets the timer entry of a branch that waits for time, made by its first wait and kept for every later
    /// one; null for other branches.
    /// </summary>
    internal TimeBranchTimer? Timer { get; set; }

    /// <summary>
    /// Chooses this branch for wait <paramref name="generation"/> unless another branch was chosen first or the
    /// wait is over; makes the waiting thread ready if it is parked. True if this call chose it. Any thread.
    /// </summary>
    /// <param name="generation">The wait the registration was made for.</param>
    /// <param name="alongside">The waker goes on running, so the thread is queued where an idle worker can take it.</param>
    internal bool Fire(long generation, bool alongside = false) => Choice.Fire(generation, Index, alongside);

    /// <inheritdoc/>
    public override string ToString() => $"branch {Index} of {Choice}";
}
