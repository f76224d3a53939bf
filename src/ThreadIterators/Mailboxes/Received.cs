using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// What a receive event holds for its body between two receives, written once for <see cref="ReceiveEvent{T}"/> and
/// <see cref="SharedReceiveEvent{T}"/>: the message of the latest receive, or the end of the completed mailbox.
/// </summary>
/// <remarks>
/// A mutable struct held in a field of its event (never copied), so it costs no second object; its members are small
/// enough that the JIT inlines them into the event's, so a receive stores the message and a read of the value checks
/// one flag, as before. The receiving green thread only.
/// </remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
internal struct Received<T>
{
    /// <summary>The message of the latest receive; default once the end was received.</summary>
    private T _value;

    /// <summary>
    /// Whether a receive got the end. Set once and never cleared, since nothing follows the end; so a message costs
    /// no store here, and <see cref="Get"/> reads one flag.
    /// </summary>
    private bool _completed;

    /// <summary>
    /// Gets or sets the mailbox's <see cref="Mailbox{T}.OutlivesReceiver"/>, for a <see cref="ReceiveEvent{T}"/>, kept
    /// here because this struct has a spare byte after <see cref="_completed"/> and the mailbox has none: a field there,
    /// or in the event beside this struct, would cost 8 bytes. A <see cref="SharedReceiveEvent{T}"/> leaves it false.
    /// </summary>
    internal bool OutlivesReceiver { readonly get; set; }

    /// <summary>Gets a value indicating whether a receive got the end rather than a message.</summary>
    internal readonly bool IsCompleted => _completed;

    /// <summary>Gets the message of the latest receive, or throws if it got the end of the completed mailbox.</summary>
    /// <param name="owner">The event, a <see cref="ReceiveEvent{T}"/> or a <see cref="SharedReceiveEvent{T}"/>, for the exception.</param>
    internal readonly T Get(Event owner)
    {
        if (_completed)
        {
            ThrowCompleted(owner);
        }

        return _value;
    }

    /// <summary>Stores a taken message for the body to read. The receiving thread.</summary>
    /// <param name="message">The message.</param>
    /// <param name="owner">The event, for the assertion's message.</param>
    internal void Deliver(T message, Event owner)
    {
        Debug.Assert(!_completed, $"{owner} delivered a message after the end: its completed mailbox took a send.");
        _value = message;
    }

    /// <summary>Records that the receive got the end of the completed mailbox. The receiving thread.</summary>
    internal void DeliverEnd()
    {
        _completed = true;
        _value = default!;
    }

    /// <summary>Describes the latest receive for a trace.</summary>
    internal readonly string TraceResult() => _completed ? " -> the end" : $" -> {_value}";

    // Not inlined, and seen by the JIT to throw, so the check that calls it costs the caller a compare and a branch.
    // The two events that hold one are told apart here, on the throwing path only, to name the mailbox and carry its error.
    [DoesNotReturn]
    private static void ThrowCompleted(Event owner)
    {
        var (mailbox, error) = owner is ReceiveEvent<T> receive
            ? ((object)receive.Mailbox, receive.Mailbox.CompletionError)
            : (((SharedReceiveEvent<T>)owner).Mailbox, ((SharedReceiveEvent<T>)owner).Mailbox.CompletionError);
        throw new ChannelClosedException(
            $"{owner} got the end, not a message: {mailbox} was completed and its every message taken. Check IsCompleted before reading Value.",
            error);
    }
}
