using System.Collections.Generic;

namespace ThreadIterators.Testing;

/// <summary>Makes the scheduling decisions of one explored run, from its seed alone, so a run can be replayed.</summary>
internal interface IScheduleStrategy
{
    /// <summary>
    /// Picks the next step: an index into <paramref name="ready"/> (runnable threads, in the order they became
    /// runnable); <c>ready.Count + i</c> to take the completion of outside work <paramref name="outside"/>[i] waits for
    /// (<see cref="OutsideWork.Anytime"/>; empty otherwise); or -1 to fire the earliest pending timer, allowed only
    /// when <paramref name="timerPending"/>. <paramref name="ready"/> and <paramref name="outside"/> are not both empty.
    /// </summary>
    int Choose(List<GreenThread> ready, List<GreenThread> outside, bool timerPending, int step);

    /// <summary>
    /// Told that <paramref name="thread"/> gave up its turn on purpose (<see cref="Event.Yield"/>): it waits for
    /// others, so a strategy that would otherwise keep running it (PCT's priorities) lets them go first.
    /// </summary>
    void Yielded(GreenThread thread);

    /// <summary>Picks which of <paramref name="count"/> branches of a choice is looked at first, so any ready one may be taken; 0 to count - 1.</summary>
    int ChooseBranch(int count);
}
