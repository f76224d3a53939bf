namespace ThreadIterators;

/// <summary>
/// An ask sent to a mailbox that had no receiver to watch
/// (<see cref="MailboxAsking.extension{T}(Mailbox{T}).Ask{TReply}"/>): it watches the next green thread to become
/// the mailbox's receiver instead (<see cref="UnservedAsks"/>), so that thread's end fails the ask rather than leaving
/// it waiting for a request that went to the dead letters. Not generic, so one list holds asks of any reply type.
/// </summary>
internal interface IUnservedAsk
{
    /// <summary>Gets a value indicating whether the ask has its outcome already (nothing left to watch for).</summary>
    bool IsDecided { get; }

    /// <summary>Watches <paramref name="server"/>: its end fails the ask with a <see cref="ServerEndedException"/>, at once if it has ended.</summary>
    void WatchServer(GreenThread server);
}
