namespace WordCount;

/// <summary>How the producer and the consumers exchange pages.</summary>
public enum Approach
{
    /// <summary>The producer pushes into bounded mailboxes and parks while they are full.</summary>
    PushBounded,

    /// <summary>The producer pushes into unbounded mailboxes and keeps at most a window of pages unacknowledged.</summary>
    FlowControl,

    /// <summary>Consumers ask the producer for batches of pages.</summary>
    Pull,

    /// <summary>The .NET baseline: async/await tasks on one bounded <c>Channel</c>.</summary>
    TasksChannel,
}
