using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The seam through which a feature learns that a green thread has become a mailbox's receiver, without the mailbox
/// knowing the feature: the one listener, published only while the feature has a wait recorded. Any thread: the
/// listening feature writes it, under its own lock; every bind reads it.
/// </summary>
/// <remarks>
/// <para>
/// The handshake (Dekker's, both sides full fences) between a waiter that found a mailbox with no receiver to wait on
/// and a green thread binding to that mailbox as its receiver:
/// </para>
/// <list type="number">
/// <item>The waiter records its wait, keyed by the mailbox, and publishes its listener here (<see cref="Listen"/>)
/// while any wait is recorded; then a full fence; then it reads the mailbox's receiver.</item>
/// <item>A bind (a green thread's first receive, or a spawn that binds the mailbox to the thread it spawns) swaps
/// the receiver in with a compare-and-swap (the full fence), then reads <see cref="Listener"/> once, and calls it if
/// there is one (<see cref="IReceiverBindListener.ReceiverBound"/>).</item>
/// <item>At least one of the two sees the other: the waiter sees the receiver, or the bind sees the listener. Both
/// may, so whichever serves the recorded waits first takes them under the listener's lock, and the other finds
/// none.</item>
/// <item>The listener is withdrawn (null) only once no wait is recorded, under the same lock as the records: a bind
/// that reads null has missed no wait, since a wait recorded before its swap would have kept the listener
/// published.</item>
/// </list>
/// <para>
/// The listener, not a flag, is what is published, so the mailboxes name no feature; and it is null while nothing
/// waits, so every bind (Skynet makes a million) pays one volatile read for it and nothing more. The one listener
/// today is request-reply's: an ask sent before its server first received waits for that receiver
/// (Replies/UnservedAsks.cs).
/// </para>
/// </remarks>
internal static class ReceiverBinds
{
    /// <summary>The listener while it has a wait recorded; null otherwise (see the steps above).</summary>
    private static IReceiverBindListener? s_listener;

    /// <summary>Gets the listener to call after a bind's swap, or null while no wait is recorded. Any thread; a volatile read.</summary>
    internal static IReceiverBindListener? Listener => Volatile.Read(ref s_listener);

    /// <summary>
    /// Publishes <paramref name="listener"/> (step 1), or withdraws it with null (step 4). The listener's own lock
    /// held, so that it is published exactly while a wait is recorded.
    /// </summary>
    internal static void Listen(IReceiverBindListener? listener) => Volatile.Write(ref s_listener, listener);
}
