namespace ThreadIterators;

/// <summary>How a <see cref="Router{T}"/> picks the mailbox each message goes to.</summary>
/// <remarks>
/// The third way to feed a pool of consumers, balancing (work sharing), needs no router: the consumers all receive
/// from one <see cref="SharedMailbox{T}"/>, so whichever is free takes the next message.
/// </remarks>
public enum RoutingStrategy
{
    /// <summary>Each message to the next mailbox in turn.</summary>
    RoundRobin,

    /// <summary>
    /// Each message to the mailbox holding the fewest messages (an idle, empty one first); ties go to the mailbox
    /// after the last one chosen, so equal consumers share the work.
    /// </summary>
    SmallestMailbox,
}
