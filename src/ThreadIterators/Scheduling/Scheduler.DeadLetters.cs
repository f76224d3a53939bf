using System;
using System.Diagnostics.Tracing;
using System.Threading;

namespace ThreadIterators;

// Dead letters: messages that reached no receiver, because the green thread that received from their mailbox ended.
// Counted and raised here, on the scheduler of that thread, so that none is dropped silently. Off every hot path:
// only a send to a mailbox whose receiver has ended comes here. Any thread.
public sealed partial class Scheduler
{
    /// <summary>Dead letters so far, by <see cref="DeadLetterReason"/>; see <see cref="DeadLetterCount"/>.</summary>
    private readonly long[] _deadLetters = new long[Enum.GetValues<DeadLetterReason>().Length];

    /// <summary>
    /// Raised for every message that reached no receiver: a message still in a mailbox when its receiving green
    /// thread ended, or sent to the mailbox after that (see <see cref="Mailbox{T}.OutlivesReceiver"/>). The
    /// scheduler is the ended receiver's, and raises it also after its disposal, for the sends that come later.
    /// </summary>
    /// <remarks>
    /// Raised synchronously on the OS thread that found the message undeliverable: the receiver's worker as it ends
    /// (for the messages queued then), or the sender's thread. A handler must not block; one that throws is reported
    /// on standard error, and the runtime goes on (see <see cref="UnobservedFault"/> for the rule).
    /// </remarks>
    public event EventHandler<DeadLetterEventArgs>? DeadLetter;

    /// <summary>Gets how many messages have gone to this scheduler's dead letters (see <see cref="DeadLetter"/>).</summary>
    public long DeadLetterCount
    {
        get
        {
            long sum = 0;
            for (var i = 0; i < _deadLetters.Length; i++)
            {
                sum += Interlocked.Read(ref _deadLetters[i]);
            }

            return sum;
        }
    }

    /// <summary>
    /// Reports a message that reached no receiver through a target that is not one of this library's mailboxes: a
    /// transport to another process, or a target of the user's own. It is counted and raised as <see cref="DeadLetter"/>,
    /// as the library's own dead letters are, so one handler sees them all.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <param name="target">Where it was sent: the address or target the handler will see as <see cref="DeadLetterEventArgs.Mailbox"/>.</param>
    /// <param name="reason">Why it was not delivered.</param>
    /// <exception cref="ArgumentNullException"><paramref name="target"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="reason"/> is not a <see cref="DeadLetterReason"/>.</exception>
    public void ReportDeadLetter(object? message, object target, DeadLetterReason reason)
    {
        ArgumentNullException.ThrowIfNull(target);
        if ((uint)reason >= (uint)_deadLetters.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(reason), reason, $"{reason} is not a {nameof(DeadLetterReason)}.");
        }

        DeadLettered(message, target, receiver: null, reason);
    }

    /// <summary>Gets how many dead letters had <paramref name="reason"/>, for the meter.</summary>
    internal long DeadLetterCountOf(DeadLetterReason reason) => Interlocked.Read(ref _deadLetters[(int)reason]);

    /// <summary>Counts a dead letter and raises <see cref="DeadLetter"/>. Any thread.</summary>
    internal void DeadLettered(object? message, object mailbox, GreenThread? receiver, DeadLetterReason reason)
    {
        Interlocked.Increment(ref _deadLetters[(int)reason]);
        if (ThreadIteratorsEventSource.Log.IsEnabled(EventLevel.Warning, ThreadIteratorsEventSource.Keywords.DeadLetters))
        {
            ThreadIteratorsEventSource.Log.DeadLetter(message?.GetType().FullName ?? "null", mailbox.ToString() ?? string.Empty, reason.ToString());
        }

        var handler = DeadLetter;
        if (handler is null)
        {
            return;
        }

        var args = new DeadLetterEventArgs(message, mailbox, receiver, reason);
        try
        {
            handler(this, args);
        }
        catch (Exception exception)
        {
            // The sender, or the worker ending the receiver, must go on; see UnobservedFault for the rule.
            Console.Error.WriteLine($"ThreadIterators: a {nameof(DeadLetter)} handler of {this} threw on {args}: {exception}");
        }
    }
}
