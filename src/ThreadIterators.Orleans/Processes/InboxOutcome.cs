namespace ThreadIterators.Orleans;

/// <summary>What <see cref="LocalProcess.TryDeliver"/> did with a message.</summary>
internal enum InboxOutcome
{
    /// <summary>The message is in the inbox (or, for an ended process's unbounded inbox, with its dead letters).</summary>
    Taken,

    /// <summary>The message is not of the inbox's type: refused, a dead letter on its sender.</summary>
    NotOfType,

    /// <summary>The bounded inbox is full, or completed: <see cref="LocalProcess.DeliverWhenRoomAsync"/> takes it.</summary>
    Full,
}
