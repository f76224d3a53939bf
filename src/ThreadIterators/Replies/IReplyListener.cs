namespace ThreadIterators;

/// <summary>
/// Who waits for a <see cref="PendingReply{T}"/>: the <see cref="AskEvent{T}"/> a green caller yields, or the task an
/// async caller awaits. Told once, when the ask's outcome is decided.
/// </summary>
internal interface IReplyListener
{
    /// <summary>
    /// The outcome is decided and readable. On the thread that decided it: the replier's, the timer's firing thread,
    /// the server's ending worker, or a canceling thread. Must not block.
    /// </summary>
    void Completed();
}
