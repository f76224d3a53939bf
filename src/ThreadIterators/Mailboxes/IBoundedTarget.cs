namespace ThreadIterators;

/// <summary>
/// What the waiting side of a bounded send needs from a bounded <see cref="Mailbox{T}"/> or
/// <see cref="SharedMailbox{T}"/>: a send that never waits, a look for room, and the queue of waiting senders.
/// </summary>
/// <remarks>Any thread, as each member says.</remarks>
/// <typeparam name="T">The message type.</typeparam>
internal interface IBoundedTarget<T>
{
    /// <summary>Gets the senders waiting for room; null while the target is unbounded.</summary>
    WaiterQueue? Room { get; }

    /// <summary>Sends if there is room, waking a receiver if one waits; never waits. A bounded target only; any thread.</summary>
    bool TryAdd(T message);

    /// <summary>Sends at once into an unbounded target, or as <see cref="TryAdd"/> into a bounded one.</summary>
    bool TrySend(T message);

    /// <summary>Gets a value indicating whether there seems to be room; a look, with nothing reserved.</summary>
    bool HasRoom();
}
