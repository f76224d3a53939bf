using System;
using System.Diagnostics.CodeAnalysis;

namespace ThreadIterators;

/// <summary>
/// What an ask (<see cref="MailboxAsking.extension{T}(Mailbox{T}).Ask{TReply}"/>,
/// <see cref="MailboxAsking.extension{T}(Mailbox{T}).AskAsync{TReply}"/>) fails with when the green thread serving the
/// mailbox ends before it replies, however it ends: as Erlang's <c>gen_server:call</c> exits with the server's
/// reason, at once, not at the timeout. The inner exception is the one that ended the server, if it faulted.
/// </summary>
[SuppressMessage("Design", "CA1032:Implement standard exception constructors", Justification = "Only an ask makes it, with the server's end.")]
public sealed class ServerEndedException : Exception
{
    internal ServerEndedException(ThreadExit exit, string ask)
        : base($"{ask} failed: {exit.Thread} ended {exit.Outcome} before it replied{(exit.Exception is null ? "." : $": {exit.Exception.Message}")}", exit.Exception)
    {
        Server = exit.Thread;
        Outcome = exit.Outcome;
    }

    /// <summary>
    /// Gets the server: the green thread that received from the mailbox when the request was sent (bound to it at its
    /// spawn, or by its first receive), or, if it had none, the next to.
    /// </summary>
    public GreenThread Server { get; }

    /// <summary>Gets how the server ended: <see cref="ThreadOutcome.Completed"/>, <see cref="ThreadOutcome.Faulted"/> or <see cref="ThreadOutcome.Canceled"/>.</summary>
    public ThreadOutcome Outcome { get; }
}
