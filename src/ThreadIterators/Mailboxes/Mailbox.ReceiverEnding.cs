using System;
using System.Threading;

namespace ThreadIterators;

// The end of a mailbox's receiving green thread. Unless the mailbox outlives its receiver, its messages then go to
// the dead letters of the receiver's scheduler: those queued at the end, and every one sent later. An unbounded
// mailbox does this lazily, at no cost to a thread whose mailbox nobody sends to again: the ended receiver's worker
// drains it and parks "the ended receiver" on it, with a marker where a choice or an async reader would be, so the
// sender whose message takes that park mark drains it in the receiver's place, on its own thread, and parks it
// again. A bounded mailbox, whose senders may be waiting for room, is completed instead, so that every waiting
// sender is released with an exception that names it, and every later send is refused the same way.
public sealed partial class Mailbox<T> : IReceiverEndHandler
{
    /// <summary>Stands in <see cref="_chooser"/> once the receiver has ended: a sender that takes the park mark drains the mailbox into the dead letters.</summary>
    private static readonly object s_receiverEnded = new();

    /// <summary>
    /// Gets a value indicating whether the mailbox outlives its receiving green thread. False (the default): when the
    /// receiver ends, normally, by a fault or by a stop, the messages still queued and every message sent later go
    /// to the dead letters of its scheduler (<see cref="Scheduler.DeadLetter"/>), as an Erlang process's mailbox dies
    /// with it; a bounded mailbox is completed, so that senders waiting for room, and later ones, are refused with a
    /// <see cref="System.Threading.Channels.ChannelClosedException"/> naming the mailbox and the receiver; and no
    /// other thread may receive from it. True: the messages wait for the next green thread that receives, as a
    /// restarted Akka.NET actor keeps its mailbox; nothing is dead-lettered.
    /// </summary>
    /// <remarks>
    /// Set it where one receiver hands over to another: a worker that a supervisor restarts on the same mailbox, a
    /// mailbox read in turn by short-lived threads. A sender never pays for either choice: an unbounded mailbox's
    /// dead letters are found only by the first send after the end, on the path a send to a parked receiver takes
    /// anyway.
    /// </remarks>
    public bool OutlivesReceiver
    {
        get => _receive.OutlivesReceiver;
        init => _receive.OutlivesReceiver = value;
    }

    /// <inheritdoc/>
    void IReceiverEndHandler.ReceiverEnded(GreenThread thread)
    {
        if (Volatile.Read(ref _receiver) != thread || Volatile.Read(ref _chooser) is MailboxChannelReader<T>)
        {
            // An async reader took the mailbox over, or is attaching now that the receiver has ended: it is the
            // receiver. Its attach is decided under a lock this does not take, so an unattached one is left alone too.
            return;
        }

        if (Room is not null)
        {
            // Completed in the receiver's name: a sender waiting for room is released with the refusal, and the end
            // segment stops every later one. End wakes nobody here (the receiver is not parked; a stop or a disposal
            // took its mark first).
            End(error: null, endedReceiver: thread);
        }
        else
        {
            Volatile.Write(ref _chooser, s_receiverEnded);
        }

        DrainToDeadLetters(thread, DeadLetterReason.QueuedWhenReceiverEnded);
    }

    /// <summary>
    /// Takes every message into the dead letters, then parks the ended receiver again (an unbounded mailbox), or stops
    /// at the end (a completed one). As the receiver: the ended receiver's worker, or a sender that took its park mark.
    /// </summary>
    private void DrainToDeadLetters(GreenThread receiver, DeadLetterReason reason)
    {
        var scheduler = receiver.Scheduler;
        while (true)
        {
            while (TryTake(out var message))
            {
                scheduler.DeadLettered(message, this, receiver, reason);
            }

            if (AtEnd || TryPark())
            {
                return;
            }
        }
    }

    /// <summary>The exception of a thread that would take over a mailbox whose ended receiver it did not outlive.</summary>
    private InvalidOperationException ReceiverEndedForGood(string newcomer, GreenThread ended) =>
        new($"{newcomer} cannot receive from {this}: its receiver {ended} has ended, and its messages go to the dead letters since. A mailbox that passes from one receiver to the next is made with {nameof(OutlivesReceiver)} = true.");
}
