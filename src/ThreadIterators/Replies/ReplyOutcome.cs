namespace ThreadIterators;

/// <summary>How an ask ended; the state word of a <see cref="PendingReply{T}"/> once it is decided.</summary>
internal enum ReplyOutcome
{
    /// <summary>Nothing decided yet: the caller waits.</summary>
    Pending,

    /// <summary>One party won the decision and is writing the outcome; readers see it only once it is final.</summary>
    Deciding,

    /// <summary>The server replied with a value.</summary>
    Replied,

    /// <summary>The server answered with an exception (<see cref="ReplyTo{T}.Fail"/>).</summary>
    Failed,

    /// <summary>The server thread ended before it replied.</summary>
    ServerEnded,

    /// <summary>The timeout passed first.</summary>
    TimedOut,

    /// <summary>The async caller's token was canceled first.</summary>
    Canceled,

    /// <summary>The caller can no longer read a reply: it was stopped, or its scheduler disposed, while it waited, or the request was never sent.</summary>
    Abandoned,
}
