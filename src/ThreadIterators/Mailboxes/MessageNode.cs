namespace ThreadIterators;

/// <summary>
/// One message in a <see cref="Mailbox{T}"/>'s queue. Nodes are recycled through <see cref="NodePool{T}"/>, so a
/// message in steady state costs no allocation.
/// </summary>
/// <typeparam name="T">The message type.</typeparam>
internal sealed class MessageNode<T>
{
    /// <summary>The next node towards the newest message; written once by the sender that pushed after this one.</summary>
    internal MessageNode<T>? Next;

    /// <summary>The message; cleared when the receiver takes it so a pooled node keeps nothing alive.</summary>
    internal T Value = default!;
}
