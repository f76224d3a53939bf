namespace ThreadIterators;

/// <summary>
/// One slot of a <see cref="TimerQueue"/>'s heap: the key and the entry. The key lives here, not in the entry, so a
/// sift compares keys in the array without reading the entries it passes over.
/// </summary>
/// <remarks>Only under its queue's lock.</remarks>
internal struct TimerNode
{
    /// <summary>When the entry is due, in the queue's <see cref="System.TimeProvider"/> timestamp units.</summary>
    internal long Deadline;

    /// <summary>The queue's count of schedules when this one was made: equal deadlines fire in schedule order.</summary>
    internal long Sequence;

    /// <summary>The entry this slot holds.</summary>
    internal TimerEntry Entry;

    /// <summary>Gets a value indicating whether this node is due before <paramref name="other"/>.</summary>
    internal readonly bool Precedes(in TimerNode other) =>
        Deadline < other.Deadline || (Deadline == other.Deadline && Sequence < other.Sequence);
}
