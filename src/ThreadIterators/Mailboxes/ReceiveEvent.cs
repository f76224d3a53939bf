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
public sealed class ReceiveEvent<T> : Event, IChoosable, ITimedWaitSource, IMessageWait
{
    /// <summary>The mailbox this event receives from.</summary>
    private readonly Mailbox<T> _mailbox;

    /// <summary>The message of the latest receive; default once the end was received.</summary>
    private T _value = default!;

    /// <summary>
    /// Whether a receive got the end. Set once and never cleared, since nothing follows the end; so a message costs
    /// no store here, and <see cref="Value"/> reads one flag.
    /// </summary>
    private bool _completed;

    /// <summary>The mailbox's <see cref="Mailbox{T}.OutlivesReceiver"/>, kept here in a spare byte after <see cref="_completed"/>.</summary>
    private bool _outlivesReceiver;

    internal ReceiveEvent(Mailbox<T> mailbox) => _mailbox = mailbox;

    /// <summary>
    /// Gets or sets the mailbox's <see cref="Mailbox{T}.OutlivesReceiver"/>, kept here because the event has a spare
    /// byte and the mailbox has none: a field there would cost 8 bytes. Set once, at the mailbox's construction.
    /// </summary>
    internal bool OutlivesReceiver
    {
        get => _outlivesReceiver;
        set => _outlivesReceiver = value;
    }

    /// <summary>Gets the message received by the latest receive.</summary>
    /// <exception cref="ChannelClosedException">
    /// The receive got the end of the completed mailbox, not a message (<see cref="IsCompleted"/>). The message names
    /// the mailbox; the inner exception is the error it was completed with, if any.
    /// </exception>
    public T Value
    {
        get
        {
            if (_completed)
            {
                Received.ThrowCompleted(this, _mailbox, _mailbox.CompletionError);
            }

            return _value;
        }
    }

    /// <summary>
    /// Gets a value indicating whether the latest receive got the end rather than a message: the mailbox was completed
    /// (<see cref="Mailbox{T}.Complete"/>) and every message sent before has been taken. It stays true: every later
    /// receive completes at once with the end.
    /// </summary>
    public bool IsCompleted => _completed;

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
            into.Gave(Received.TraceResult(_completed, _value));
        }
    }

    // The receive itself is the mailbox's receiver side (Mailbox.Receiving.cs), so a message hop reads in one place.
    internal override EventOutcome Park(GreenThread thread, Worker worker) => _mailbox.TakeOrPark(thread, this, worker);

    /// <inheritdoc/>
    bool IMessageWait.WaitsForMessage => true;

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        // Counted where the receiver resumes, whose worker is at hand, rather than by the waker: one add, no look-up.
        worker.Counters.WakeUps++;
        return _mailbox.TakeOnResume(thread, this);
    }

    /// <summary>Stores a taken message for the body to read. Receiver only.</summary>
    internal void Deliver(T message)
    {
        Debug.Assert(!_completed, $"{this} delivered a message after the end: its completed mailbox took a send.");
        _value = message;
    }

    /// <summary>Records that the receive got the end of the completed mailbox. Receiver only.</summary>
    internal void DeliverEnd()
    {
        _completed = true;
        _value = default!;
    }

    internal override void Abandon(GreenThread thread) => _mailbox.Abandon();

    internal override bool TryInterrupt(GreenThread thread) => _mailbox.TryInterruptReceive(thread);

    // As a branch, the receive is the mailbox's receiver side too (Mailbox.Receiving.cs).
    EventOutcome IChoosable.TryCompleteNow(GreenThread thread) => _mailbox.TryReceive(thread, this);

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => _mailbox.EnlistReceive(thread, branch, worker);

    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => _mailbox.WithdrawReceive();

    // Takes as the look does: the message the branch was fired for, or the end.
    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => _mailbox.TryReceive(thread, this);

    /// <inheritdoc/>
    TimedWait ITimedWaitSource.TimedWaitOf(Event @event, TimeSpan timeout) => new TimedReceive<T>(this, timeout, @event);
}
