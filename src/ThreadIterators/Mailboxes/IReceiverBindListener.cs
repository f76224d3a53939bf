namespace ThreadIterators;

/// <summary>
/// What a feature that waits for a mailbox's next receiver is told when a green thread becomes a mailbox's receiver,
/// while it listens: the core's side of the handshake in <see cref="ReceiverBinds"/>, whose header has its steps.
/// Called by the binding green thread, on its worker, inside its receive; so it must be short and must not park.
/// </summary>
internal interface IReceiverBindListener
{
    /// <summary>
    /// <paramref name="receiver"/> has just become <paramref name="mailbox"/>'s receiver: its swap is done, so it is
    /// the receiver and alive while this runs. The binding green thread (<paramref name="receiver"/> itself).
    /// </summary>
    /// <param name="mailbox">The mailbox bound, as the key a waiter recorded its wait under.</param>
    /// <param name="receiver">Its new receiver.</param>
    void ReceiverBound(object mailbox, GreenThread receiver);
}
