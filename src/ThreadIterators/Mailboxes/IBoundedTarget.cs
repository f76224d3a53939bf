using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// What the waiting side of a bounded send needs from a bounded <see cref="Mailbox{T}"/> or
/// <see cref="SharedMailbox{T}"/>: a send that never waits, a look for room, the queue of waiting senders, and, for
/// a send that finds no room, whether the target was completed.
/// </summary>
/// <remarks>Any thread, as each member says.</remarks>
/// <typeparam name="T">The message type.</typeparam>
internal interface IBoundedTarget<T> : IDrained
{
    /// <summary>Gets the senders waiting for room; null while the target is unbounded.</summary>
    WaiterQueue? Room { get; }

    /// <summary>
    /// Gets a value indicating whether the target was completed: a send that fails after this reads true was refused,
    /// not kept out by a full mailbox, and must not wait. Any thread.
    /// </summary>
    bool IsCompleted { get; }

    /// <summary>
    /// Sends if there is room, waking a receiver if one waits; never waits. False if the target is full or completed.
    /// A bounded target only; any thread.
    /// </summary>
    bool TryAdd(T message);

    /// <summary>Sends at once into an unbounded target, or as <see cref="TryAdd"/> into a bounded one; false if completed.</summary>
    bool TrySend(T message);

    /// <summary>
    /// Gets a value indicating whether there seems to be room; a look, with nothing reserved. True once the target is
    /// completed, so a waiting sender stops waiting and finds the completion.
    /// </summary>
    bool HasRoom();

    /// <summary>
    /// Gets a value indicating whether the target is a rendezvous mailbox, whose receiver may take a waiting sender's
    /// message from the queue: such a sender offers it (<see cref="Waiter.Offer"/>) and may find its wait ended as
    /// <see cref="Waiter.Taken"/>. False by default.
    /// </summary>
    bool IsRendezvous => false;

    /// <summary>Makes the exception for a send the completed target refused, naming it, with the completion's error inside.</summary>
    ChannelClosedException Refusal();
}
