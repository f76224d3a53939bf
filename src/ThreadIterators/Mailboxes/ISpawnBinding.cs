namespace ThreadIterators;

/// <summary>
/// A mailbox that a green thread can be made the receiver of at its spawn, before its body runs
/// (<see cref="Scheduler.SpawnReceiver{T}"/>): so that
/// the spawn, which knows no message type, binds a mailbox of any. The spawning thread, before the new thread is
/// placed, so nobody runs it yet.
/// </summary>
internal interface ISpawnBinding
{
    /// <summary>
    /// Makes <paramref name="thread"/> the receiver as its first receive would (the same bind: the dead letters at its
    /// end, the handshake with a waiter for the next receiver), or throws naming both threads and the mailbox if
    /// another receiver is alive, or has ended and the mailbox does not outlive it, or async code reads it.
    /// </summary>
    /// <param name="thread">The thread being spawned, not yet placed.</param>
    void BindAtSpawn(GreenThread thread);
}
