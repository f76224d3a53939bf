namespace ThreadIterators;

/// <summary>Why a message went to the dead letters; see <see cref="Scheduler.DeadLetter"/>.</summary>
public enum DeadLetterReason
{
    /// <summary>It was in the mailbox, not yet received, when the mailbox's receiver ended.</summary>
    QueuedWhenReceiverEnded,

    /// <summary>It was sent to a mailbox whose receiver had ended.</summary>
    SentAfterReceiverEnded,

    /// <summary>
    /// The runtime sent it for a thread's end (a <see cref="ThreadWatch"/>'s or a link's <see cref="ThreadExit"/>),
    /// and the target refused it: it was completed, or a target of the user's own returned false or threw.
    /// </summary>
    RefusedByTarget,

    /// <summary>
    /// It is the answer (<see cref="ReplyTo{T}.Reply"/> or <see cref="ReplyTo{T}.Fail"/>) to a request whose caller had
    /// stopped waiting: its ask timed out, was canceled, saw its server end, or its caller was stopped while it waited.
    /// The mailbox is the request's <see cref="ReplyTo{T}"/>.
    /// </summary>
    LateReply,

    /// <summary>
    /// A transport between processes could not deliver it: nothing is registered under the address it was sent to,
    /// or the node that held its receiver was lost with it. Reported through <see cref="Scheduler.ReportDeadLetter"/>
    /// by the package that carries the message (ThreadIterators.Orleans, for one), on the sender's scheduler; the
    /// mailbox is that package's address.
    /// </summary>
    Undeliverable,
}
