namespace ThreadIterators;

/// <summary>
/// What a feature that waits for a mailbox's next receiver is told when a green thread becomes a mailbox's receiver,
/// while it listens: the core's side of the handshake in <see cref="ReceiverBinds"/>, whose header has its steps.
/// Called by the binding green thread, on its worker, inside its receive, or by the thread spawning it bound to the
/// mailbox (<see cref="ISpawnBinding"/>); so it must be short and must not park.
/// </summary>
internal interface IReceiverBindListener
{
    /// <summary>
    /// <paramref name="receiver"/> has just become <paramref name="mailbox"/>'s receiver: its swap is done, so it is
    /// the receiver, and alive or not yet run, while this runs. The binding green thread (<paramref name="receiver"/>
    /// itself), or its spawner.
    /// </summary>
    /// <param name="mailbox">The mailbox bound, as the key a waiter recorded its wait under.</param>
    /// <param name="receiver">Its new receiver.</param>
    void ReceiverBound(object mailbox, GreenThread receiver);
}
