using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ThreadIterators;

/// <summary>
/// <see cref="Event.Never"/>: parks the yielding thread for good, as Go's <c>select {}</c> does. Only a stop
/// (<see cref="GreenThread.Stop"/>) or the scheduler's disposal ends the wait; as a branch of a <see cref="Choice"/> it
/// is never chosen, so a choice of it and a sleep is a pure timeout.
/// </summary>
/// <remarks>
/// <para>
/// One instance, shared by every thread and scheduler, so what a stop needs per thread cannot live in the event.
/// A stop may take the wait back only once the thread has parked: the worker sets <see cref="GreenThread.WaitingOn"/>
/// before it calls <see cref="Park"/>, and does more with the thread in between (its policy may weigh the step), so a
/// stop that read the event in that window must leave the thread alone and let the worker's look after the park find
/// it. The park therefore records the thread in <see cref="s_parked"/>, and a take-back is the removal of that record:
/// the table's lock makes exactly one of the stopping thread, the parking worker's look and a disposal take it, and
/// orders the record before the worker's look at <see cref="GreenThread.PendingFault"/>, as every park's
/// compare-and-swap does.
/// </para>
/// <para>
/// A table keyed weakly, not a field of the thread (every thread would pay for it, and only this event needs it) nor
/// a strong set (a thread parked here whose scheduler is dropped undisposed would be kept alive by a static).
/// </para>
/// </remarks>
internal sealed class NeverEvent : Event, IChoosable
{
    /// <summary>The threads parked here and not yet taken back; the value is unused.</summary>
    private static readonly ConditionalWeakTable<GreenThread, object> s_parked = [];

    /// <summary>The value of every record in <see cref="s_parked"/>.</summary>
    private static readonly object s_record = new();

    /// <inheritdoc/>
    public override string ToString() => "Event.Never";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name. For the graph: no thread, timer or outside party can end it.
        if (!into.ForTrace)
        {
            into.Say("nothing: Event.Never, which never completes");
        }
    }

    // Nobody is ever handed a wake-up; the record is for a stop to take.
    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        s_parked.AddOrUpdate(thread, s_record);
        return EventOutcome.Parked;
    }

    // Only a stop resumes the thread, through StoppedWaitEvent; nothing to take, and nothing reaches here.
    internal override EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    internal override void Abandon(GreenThread thread) => s_parked.Remove(thread);

    internal override bool TryInterrupt(GreenThread thread) => s_parked.Remove(thread);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => EventOutcome.Parked;

    // Registers nothing: no waker will ever fire the branch.
    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => true;

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen)
    {
    }

    EventOutcome IChoosable.CompleteChosen(GreenThread thread)
    {
        Debug.Fail("Event.Never was chosen by a choice, though nothing ever fires it.");
        return EventOutcome.Parked;
    }
}
