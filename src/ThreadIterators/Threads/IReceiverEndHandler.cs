namespace ThreadIterators;

/// <summary>
/// A mailbox that a green thread has become the receiver of, told when that thread ends so that its queued and later
/// messages go to the dead letters instead of waiting unseen (see <see cref="Mailbox{T}.OutlivesReceiver"/>).
/// </summary>
/// <remarks>
/// Kept by the thread itself (<see cref="GreenThread.AddReceived"/>): in the field that otherwise holds its exit
/// event, so a thread that receives from one mailbox pays no memory for it.
/// </remarks>
internal interface IReceiverEndHandler
{
    /// <summary>
    /// The receiver has ended: its body is disposed, and its end not yet published. On the ending worker, or the
    /// disposing thread; the mailbox's receiver side is the caller's until this returns.
    /// </summary>
    /// <param name="thread">The thread that ended.</param>
    void ReceiverEnded(GreenThread thread);
}
