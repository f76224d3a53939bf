using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// Something messages can be sent to: a <see cref="Mailbox{T}"/>, a <see cref="SharedMailbox{T}"/> that several
/// green threads receive from, or a <see cref="Router{T}"/> in front of several mailboxes. A producer written against
/// this interface works with any of them, bounded or not.
/// </summary>
/// <remarks>
/// Any thread may send; a green thread yields <see cref="Put"/> rather than block its worker in a bounded send.
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
public interface IMessageTarget<in T>
{
    /// <summary>
    /// Sends a message. Never blocks into an unbounded target; into a full bounded one it blocks the calling OS thread
    /// until there is room, and a green thread, which must not block its worker, yields <see cref="Put"/> instead.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <exception cref="InvalidOperationException">The target is bounded and the caller is a green thread.</exception>
    void Send(T message);

    /// <summary>Sends a message if there is room, without waiting; always, into an unbounded target.</summary>
    /// <param name="message">The message.</param>
    /// <returns>True if the message was sent; false if the bounded target was full.</returns>
    bool TrySend(T message);

    /// <summary>Sends a message, waiting asynchronously while a bounded target is full; completes at once when there is room.</summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room; the message is then not sent.</param>
    /// <returns>A task that completes when the message is in.</returns>
    ValueTask SendAsync(T message, CancellationToken cancellationToken = default);

    /// <summary>
    /// Gets the event a green thread yields to send: the message goes in at once if there is room, and otherwise when
    /// a receiver has made room, the thread parked until then. Yield it right away.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <returns>The event to yield.</returns>
    /// <exception cref="InvalidOperationException">The caller is not a green thread.</exception>
    Event Put(T message);
}
