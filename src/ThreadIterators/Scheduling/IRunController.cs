namespace ThreadIterators;

/// <summary>
/// The seam through which a run is driven from outside the core: one that makes every scheduling decision itself
/// (a seeded exploration, in the separate testing package), given a scheduler of one worker that starts no OS thread
/// and no watchdog. The core asks it which thread runs next, tells it when a turn ends, lets it pick which branch of
/// a choice is looked at first, and hands it the completions of outside work, so that nothing in such a run depends
/// on real time. The core knows nothing of how the decisions are made.
/// </summary>
/// <remarks>
/// <see cref="Next"/>, <see cref="TurnEnded"/> and <see cref="ChooseBranch"/>: the driving OS thread, as the worker.
/// <see cref="HoldFire"/> and <see cref="Placement"/>'s calls: any thread.
/// </remarks>
internal interface IRunController
{
    /// <summary>Gets where every thread made ready goes: to the controller, which picks the next to run.</summary>
    IPlacementPolicy Placement { get; }

    /// <summary>
    /// Gets a value indicating whether waits on work outside the scheduler (a task, a token, a channel) park even
    /// when already complete, so their completions come back as wake-ups the controller takes in an order of its own.
    /// </summary>
    bool SeedsOutsideWork { get; }

    /// <summary>The next thread to run one turn of, or null once the run has ended.</summary>
    GreenThread? Next();

    /// <summary>Hears that the turn of <paramref name="thread"/> that <see cref="Next"/> gave has ended.</summary>
    void TurnEnded(GreenThread thread);

    /// <summary>Picks which of a choice's <paramref name="count"/> rotating branches is looked at first.</summary>
    int ChooseBranch(int count);

    /// <summary>
    /// Holds a choice's branch fired from another OS thread (<see cref="SeedsOutsideWork"/> only), to fire it on the
    /// driving thread when the controller decides.
    /// </summary>
    void HoldFire(GreenThread thread, ChoiceTicket ticket);
}
