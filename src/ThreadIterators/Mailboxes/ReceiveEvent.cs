using System.Diagnostics;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to receive from a <see cref="Mailbox{T}"/>; after the thread resumes,
/// <see cref="Value"/> holds the message. Obtain it from <see cref="Mailbox{T}.Recv"/>.
/// </summary>
/// <remarks>
/// Each mailbox has exactly one receive event, reused for every message, so receiving allocates nothing.
/// <see cref="Value"/> is meant to be read by the receiving thread between two receives.
/// The receiving green thread only, on whichever worker runs it.
/// </remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
[DebuggerDisplay("Recv() on {_mailbox,nq}")]
public sealed class ReceiveEvent<T> : Event
{
    /// <summary>The mailbox this event receives from.</summary>
    private readonly Mailbox<T> _mailbox;

    internal ReceiveEvent(Mailbox<T> mailbox) => _mailbox = mailbox;

    /// <summary>Gets the message received by the latest completed receive.</summary>
    public T Value { get; private set; } = default!;

    /// <summary>Gets the mailbox this event receives from.</summary>
    public Mailbox<T> Mailbox => _mailbox;

    /// <inheritdoc/>
    public override string ToString() => $"Recv() on {_mailbox}";

    // The receive itself is the mailbox's receiver side (Mailbox.Receiving.cs), so a message hop reads in one place.
    internal override EventOutcome Park(GreenThread thread, Worker worker) => _mailbox.TakeOrPark(thread, this);

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => _mailbox.TakeOnResume(thread, this);

    /// <summary>Stores a taken message for the body to read. Receiver only.</summary>
    internal void Deliver(T message) => Value = message;

    internal override void Abandon(GreenThread thread) => _mailbox.Abandon();

    internal override bool TryInterrupt(GreenThread thread) => _mailbox.TryInterruptReceive(thread);

    /// <inheritdoc/>
    internal override string? NotChoosableBecause => null;

    internal override EventOutcome TryCompleteNow(GreenThread thread) => _mailbox.TryReceive(thread, this);

    internal override bool Enlist(GreenThread thread, ChoiceBranch branch, long generation) => _mailbox.EnlistReceive(thread, branch);

    internal override void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => _mailbox.WithdrawReceive();
}
