using System;

namespace ThreadIterators;

/// <summary>
/// A message a <see cref="Scheduler"/> sends later: once, from
/// <see cref="ScheduledSends.SendAfter{T}(Scheduler, IMessageTarget{T}, T, TimeSpan)"/>, or on every tick of a period, from
/// <see cref="ScheduledSends.SendEvery{T}(Scheduler, IMessageTarget{T}, T, TimeSpan, TimeSpan)"/>. <see cref="Cancel"/> stops it.
/// </summary>
/// <remarks>
/// <para>
/// Any thread may use every member. The scheduler makes the only implementations; an interface rather than a class
/// so that the handle is the timer itself, one object per send.
/// </para>
/// <para>
/// <b>Cancel, once.</b> <see cref="Cancel"/> returns true if the message has not been taken for sending, and then it
/// never arrives, even when the deadline passes while <see cref="Cancel"/> runs: the timer and the cancel race for
/// one state word, and exactly one of them wins. It returns false if the timer got there first: the message is in the
/// target (<see cref="IsSent"/>), or is on its way into a bounded target that was full when the timer fired, or was
/// not sent because that wait ended with the scheduler's disposal or the target threw (<see cref="Exception"/>).
/// </para>
/// <para>
/// <b>Cancel, periodic.</b> <see cref="Cancel"/> returns true if this call stopped the timer, false if it had
/// stopped already. Either way, once it returns no further message is sent: a tick being sent on the timer's
/// thread at that moment is finished first (it puts its message in, or finds the target full), and
/// <see cref="Cancel"/> waits for that, a wait as short as a non-blocking send. (A cancel made from inside that very
/// send, by a target of your own, cannot wait for it, and returns at once.)
/// </para>
/// <para>
/// <b>Disposal.</b> A send still pending when its scheduler is disposed never happens, and <see cref="Cancel"/> then
/// returns true. A one-shot message waiting for room in a full bounded target when the scheduler is disposed is not
/// sent either (as a green thread's <see cref="IMessageTarget{T}.Put"/> is not), and <see cref="Exception"/> says so.
/// </para>
/// </remarks>
public interface IScheduledSend
{
    /// <summary>
    /// Gets a value indicating whether a <see cref="Cancel"/> won: a one-shot message that will never arrive, or a
    /// periodic send stopped.
    /// </summary>
    bool IsCanceled { get; }

    /// <summary>
    /// Gets a value indicating whether a message is in the target: the one message, or at least one tick's. Set once
    /// the send into the target has returned, so a receiver may have the message a moment before this says so.
    /// </summary>
    bool IsSent { get; }

    /// <summary>Gets how many messages have gone into the target so far: 0 or 1 for a one-shot send. Counted as <see cref="IsSent"/> is set.</summary>
    long SentCount { get; }

    /// <summary>
    /// Gets how many ticks of a periodic send found its bounded target full, and so sent nothing; always 0 for a
    /// one-shot send, whose message waits for room instead.
    /// </summary>
    long DroppedCount { get; }

    /// <summary>
    /// Gets why the message will not be sent, if it will not and nobody cancelled it: the exception the target threw
    /// (a periodic send then stops), or an <see cref="ObjectDisposedException"/> when the scheduler was disposed while
    /// the one-shot message waited for room in a full bounded target. Null otherwise.
    /// </summary>
    Exception? Exception { get; }

    /// <summary>
    /// Cancels the send. For a one-shot send: true if the message will never arrive; false if the timer had already
    /// taken it for sending, or it was cancelled before. For a periodic send: true if this call stopped it; false if it
    /// had stopped already; either way no message is sent after this returns.
    /// </summary>
    /// <returns>True if this call cancelled the send; see the remarks of <see cref="IScheduledSend"/>.</returns>
    bool Cancel();
}
