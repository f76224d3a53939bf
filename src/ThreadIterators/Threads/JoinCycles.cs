using System.Runtime.ExceptionServices;
using System.Text;

namespace ThreadIterators;

// A cycle of joins, found when it closes. A thread that has just registered as a joiner (its park's lock is the full
// fence) follows the joins from the thread it joined: each thread on the way must be parked on a join, that is, be
// among the joiners of the end its WaitingOn names (checked under that end's lock). If the way comes back to the
// joining thread, every thread on it would wait forever: the joining thread takes its registration back and ends with an
// InvalidOperationException naming the cycle, which reaches the others through their joins (a join rethrows). Of two
// threads closing a cycle at once, at least one finds it: each registers before it looks, and each registration is
// behind a full fence. A registration a wake-up beat (the joined thread ended meanwhile) stays: then there was no cycle.
internal static class JoinCycles
{
    /// <summary>Longest chain of joins followed; past it a cycle that does not come back to the joiner is assumed.</summary>
    private const int MaxSteps = 100_000;

    /// <summary>
    /// Parked, for <paramref name="joiner"/> registered at <paramref name="joined"/>'s end, unless that closed a cycle of
    /// joins: then Faulted, the registration taken back and the cycle named in the thread's pending fault.
    /// </summary>
    internal static EventOutcome ParkedUnlessCycle(GreenThread joiner, ExitEvent joined)
    {
        if (!ComesBack(joiner, joined) || !joined.RemoveJoiner(joiner))
        {
            return EventOutcome.Parked;
        }

        // Named along the joins as found, without the registration checks: another thread of the cycle may be taking
        // its own back meanwhile, having found the cycle too.
        var text = new StringBuilder();
        text.Append(joiner).Append(" joined ");
        for (var end = joined; end is not null; end = JoinedByAnyway(end.Thread))
        {
            text.Append(end.Thread);
            if (end.Thread == joiner || text.Length > 2_000)
            {
                break;
            }

            text.Append(", which joins ");
        }

        var message = $"A cycle of joins: {text}; each would wait for the next forever. {joiner} ends with this exception, which each thread in the cycle gets through its join.";
        if (ThreadIteratorsEventSource.Log.IsEnabled(System.Diagnostics.Tracing.EventLevel.Warning, ThreadIteratorsEventSource.Keywords.Deadlocks))
        {
            ThreadIteratorsEventSource.Log.Deadlock(joiner.Scheduler.ToString(), message);
        }

        joiner.PendingFault = ExceptionDispatchInfo.Capture(new System.InvalidOperationException(message));
        return EventOutcome.Faulted;
    }

    private static bool ComesBack(GreenThread joiner, ExitEvent joined)
    {
        var thread = joined.Thread;
        for (var step = 0; step < MaxSteps; step++)
        {
            if (thread == joiner)
            {
                return true;
            }

            if (JoinedBy(thread) is not { } next)
            {
                return false;
            }

            thread = next.Thread;
        }

        return false;
    }

    /// <summary>The end <paramref name="thread"/> is parked joining, or null if it is not parked on a join.</summary>
    private static ExitEvent? JoinedBy(GreenThread thread) =>
        JoinedByAnyway(thread) is { } end && end.HasJoiner(thread) ? end : null;

    /// <summary>The end <paramref name="thread"/> waits on or last waited on, parked or not; null if not a join.</summary>
    private static ExitEvent? JoinedByAnyway(GreenThread thread) => thread.WaitingOn switch
    {
        ExitEvent exit => exit,
        EndedEvent ended => ended.Exit,
        _ => null,
    };
}
