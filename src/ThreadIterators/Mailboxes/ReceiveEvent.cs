using System;
using System.Diagnostics;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to receive from a <see cref="Mailbox{T}"/>; after the thread resumes,
/// <see cref="Value"/> holds the message, or <see cref="IsCompleted"/> says the mailbox has ended. Obtain it from
/// <see cref="Mailbox{T}.Recv"/>.
/// </summary>
/// <remarks>
/// Each mailbox has exactly one receive event, reused for every message, so receiving allocates nothing.
/// <see cref="Value"/> is meant to be read by the receiving thread between two receives.
/// The receiving green thread only, on whichever worker runs it.
/// </remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
[DebuggerDisplay("Recv() on {_mailbox,nq}")]
public sealed class ReceiveEvent<T> : Event, IChoosable, ITimedWaitSource
{
    /// <summary>The mailbox this event receives from.</summary>
    private readonly Mailbox<T> _mailbox;

    /// <summary>The message of the latest receive, or the end; shared with <see cref="SharedReceiveEvent{T}"/>.</summary>
    private Received<T> _received;

    internal ReceiveEvent(Mailbox<T> mailbox) => _mailbox = mailbox;

    /// <summary>
    /// Gets or sets the mailbox's <see cref="Mailbox{T}.OutlivesReceiver"/>, kept in a spare byte of
    /// <see cref="_received"/> (see <see cref="Received{T}.OutlivesReceiver"/>). Set once, at the mailbox's construction.
    /// </summary>
    internal bool OutlivesReceiver
    {
        get => _received.OutlivesReceiver;
        set => _received.OutlivesReceiver = value;
    }

    /// <summary>Gets the message received by the latest receive.</summary>
    /// <exception cref="ChannelClosedException">
    /// The receive got the end of the completed mailbox, not a message (<see cref="IsCompleted"/>). The message names
    /// the mailbox; the inner exception is the error it was completed with, if any.
    /// </exception>
    public T Value => _received.Get(this);

    /// <summary>
    /// Gets a value indicating whether the latest receive got the end rather than a message: the mailbox was completed
    /// (<see cref="Mailbox{T}.Complete"/>) and every message sent before has been taken. It stays true: every later
    /// receive completes at once with the end.
    /// </summary>
    public bool IsCompleted => _received.IsCompleted;

    /// <summary>Gets the mailbox this event receives from.</summary>
    public Mailbox<T> Mailbox => _mailbox;

    /// <inheritdoc/>
    public override string ToString() => $"Recv() on {_mailbox}";

    // In a trace, its name, and once it completed, the message it took.
    internal override void DescribeWait(WaitDescription into)
    {
        if (!into.ForTrace)
        {
            into.Say($"a message on {_mailbox} ({_mailbox.Count} queued)");
        }
        else if (into.Completed)
        {
            into.Gave(_received.TraceResult());
        }
    }

    // The receive itself is the mailbox's receiver side (Mailbox.Receiving.cs), so a message hop reads in one place.
    internal override EventOutcome Park(GreenThread thread, Worker worker) => _mailbox.TakeOrPark(thread, this, worker);

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        // Counted where the receiver resumes, whose worker is at hand, rather than by the waker: one add, no look-up.
        worker.Counters.WakeUps++;
        return _mailbox.TakeOnResume(thread, this);
    }

    /// <summary>Stores a taken message for the body to read. Receiver only.</summary>
    internal void Deliver(T message) => _received.Deliver(message, this);

    /// <summary>Records that the receive got the end of the completed mailbox. Receiver only.</summary>
    internal void DeliverEnd() => _received.DeliverEnd();

    internal override void Abandon(GreenThread thread) => _mailbox.Abandon();

    internal override bool TryInterrupt(GreenThread thread) => _mailbox.TryInterruptReceive(thread);

    // As a branch, the receive is the mailbox's receiver side too (Mailbox.Receiving.cs).
    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => _mailbox.TryReceive(thread, this);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation) => _mailbox.EnlistReceive(thread, branch);

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => _mailbox.WithdrawReceive();

    // Takes as the look does: the message the branch was fired for, or the end.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => _mailbox.TryReceive(thread, this);

    /// <inheritdoc/>
    TimedWait ITimedWaitSource.TimedWaitOf(Event @event, TimeSpan timeout) => new TimedReceive<T>(this, timeout, @event);
}
