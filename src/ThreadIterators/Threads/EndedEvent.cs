namespace ThreadIterators;

/// <summary>
/// <see cref="GreenThread.Ended"/>: a join that resumes the joiner however the thread ended, so a supervisor can
/// read <see cref="GreenThread.Outcome"/> instead of ending with the fault. The joiners, the wake-up and the
/// disposal are its thread's <see cref="ExitEvent"/>'s; only the resume differs.
/// </summary>
/// <remarks>Any thread; stateless beyond the exit event it belongs to, which guards everything under its lock.</remarks>
internal sealed class EndedEvent : Event, IChoosable
{
    /// <summary>The exit event whose joiners this event's joiners join.</summary>
    private readonly ExitEvent _exit;

    internal EndedEvent(ExitEvent exit) => _exit = exit;

    /// <inheritdoc/>
    public override string ToString() => $"{_exit.Thread}.Ended";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"the end of {_exit.Thread} (joined, however it ends)").WaitsOn(_exit.Thread);
        }
    }

    /// <summary>Gets the exit event whose joiners this event's joiners join.</summary>
    internal ExitEvent Exit => _exit;

    internal override EventOutcome Park(GreenThread thread, Worker worker) =>
        _exit.TryAddJoiner(thread, this) ? JoinCycles.ParkedUnlessCycle(thread, _exit) : EventOutcome.Continue;

    // Woken only by the thread's end: nothing to take and nothing to rethrow.
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    internal override void Abandon(GreenThread thread) => _exit.RemoveJoiner(thread);

    internal override bool TryInterrupt(GreenThread thread) => _exit.RemoveJoiner(thread);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => HasEnded(thread);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) =>
        _exit.TryAddJoiner(thread, this, new ChoiceTicket(branch, generation));

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => _exit.RemoveJoiner(thread, branch);

    // An end, once fired, stays: the look completes it.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => HasEnded(thread);

    /// <summary>Continue if the thread has ended (observing its fault, as a join does), else Parked.</summary>
    private EventOutcome HasEnded(GreenThread thread) =>
        _exit.HasEndedForJoiner(thread, this) ? EventOutcome.Continue : EventOutcome.Parked;
}
