using System;
using System.Collections.Generic;

namespace ThreadIterators.Supervision;

/// <summary>A restart a supervisor decided but delays for its backoff: the children it will start, and when.</summary>
internal sealed class PendingRestart
{
    internal PendingRestart(string childId, ThreadExit exit, List<ChildSlot> slots, long dueAt, TimeSpan delay)
    {
        ChildId = childId;
        Exit = exit;
        Slots = slots;
        DueAt = dueAt;
        Delay = delay;
    }

    internal string ChildId { get; }

    internal ThreadExit Exit { get; }

    /// <summary>The children to start, in start order; a child another restart takes over leaves this list.</summary>
    internal List<ChildSlot> Slots { get; }

    /// <summary>When it is due, in the scheduler's time provider's timestamps.</summary>
    internal long DueAt { get; }

    internal TimeSpan Delay { get; }
}
