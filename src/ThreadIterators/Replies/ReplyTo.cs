using System;
using System.Diagnostics;

namespace ThreadIterators;

/// <summary>
/// Where the server of a request sends its one answer: a one-shot reply target, made by
/// <see cref="MailboxAsking.extension{T}(Mailbox{T}).Ask{TReply}"/> or
/// <see cref="MailboxAsking.extension{T}(Mailbox{T}).AskAsync{TReply}"/> and carried in the request
/// (Erlang's <c>From</c> of <c>gen_server:call</c>, Akka.NET's <c>Sender</c> of an <c>Ask</c>).
/// </summary>
/// <remarks>
/// <para>
/// The server answers once, with <see cref="Reply"/> or <see cref="Fail"/>, from any thread, green or not; it never
/// blocks. An answer given while the caller waits is the caller's. An answer given after the caller stopped waiting
/// (its ask timed out, its token was canceled, the server was seen to end, the caller was stopped) goes to the dead
/// letters of the caller's scheduler (<see cref="Scheduler.DeadLetter"/>, reason
/// <see cref="DeadLetterReason.LateReply"/>), never to a later ask: each request has its own target.
/// </para>
/// </remarks>
/// <typeparam name="T">The reply's type.</typeparam>
/// <example>
/// A server that answers counts:
/// <code>
/// record Get(string Key, ReplyTo&lt;int&gt; Reply);
///
/// static IEnumerable&lt;Event&gt; Serve(Mailbox&lt;Get&gt; requests, Dictionary&lt;string, int&gt; counts)
/// {
///     var next = requests.Recv();
///     while (true)
///     {
///         yield return next;
///         var get = next.Value;
///         if (get.Reply.IsWaiting)                     // skip the work for a caller that gave up
///         {
///             get.Reply.Reply(counts.GetValueOrDefault(get.Key));
///         }
///     }
/// }
/// </code>
/// </example>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class ReplyTo<T>
{
    private readonly PendingReply<T> _pending;

    internal ReplyTo(PendingReply<T> pending) => _pending = pending;

    /// <summary>
    /// Gets a value indicating whether the caller still waits for the answer: false once it has one, or has stopped
    /// waiting. A server may skip the work of a request whose caller gave up; an answer is never refused either way.
    /// </summary>
    public bool IsWaiting => !_pending.IsDecided;

    /// <summary>
    /// Answers the request with <paramref name="value"/>: the caller's ask completes with it, or, if the caller has
    /// stopped waiting, it goes to the dead letters (<see cref="DeadLetterReason.LateReply"/>). Any thread; never blocks.
    /// </summary>
    /// <param name="value">The reply.</param>
    /// <returns>True if the caller got it; false if it went to the dead letters.</returns>
    /// <exception cref="InvalidOperationException">The request was answered already: a reply target takes one answer.</exception>
    public bool Reply(T value)
    {
        TakeAnswer(nameof(Reply));
        if (_pending.TryDecide(ReplyOutcome.Replied, value, error: null))
        {
            return true;
        }

        _pending.DeadLetter(value);
        return false;
    }

    /// <summary>
    /// Answers the request with a failure: the caller's ask throws <paramref name="exception"/> when read (Akka.NET's
    /// <c>Status.Failure</c>), or, if the caller has stopped waiting, the exception goes to the dead letters
    /// (<see cref="DeadLetterReason.LateReply"/>). Any thread; never blocks.
    /// </summary>
    /// <param name="exception">What the caller's ask throws.</param>
    /// <returns>True if the caller got it; false if it went to the dead letters.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="exception"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The request was answered already: a reply target takes one answer.</exception>
    public bool Fail(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        TakeAnswer(nameof(Fail));
        if (_pending.TryDecide(ReplyOutcome.Failed, default!, exception))
        {
            return true;
        }

        _pending.DeadLetter(exception);
        return false;
    }

    /// <inheritdoc/>
    public override string ToString() => $"ReplyTo<{TypeNames.Of<T>()}> of {_pending.Describe()} ({_pending.OutcomeText})";

    private void TakeAnswer(string how)
    {
        if (!_pending.TryTakeAnswer())
        {
            throw new InvalidOperationException($"{how} on {this}, which was answered already: a reply target takes one answer, Reply or Fail.");
        }
    }
}
