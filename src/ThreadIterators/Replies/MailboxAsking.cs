using System;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// Request-reply on a <see cref="Mailbox{T}"/>: <c>Ask</c> for a green thread, <c>AskAsync</c> for async code, each
/// sending a request that carries a one-shot reply target and waiting for the answer, the server's end or a timeout
/// (docs/supervision.md, "Request-reply"). Any thread may call them (<c>Ask</c> from a green thread only).
/// </summary>
/// <remarks>
/// <para>
/// The reply's type is named on the request's parameter, from which C# infers it with the message's type:
/// <c>inbox.Ask((ReplyTo&lt;int&gt; reply) =&gt; new Get(reply), timeout)</c>. Or both are given:
/// <c>inbox.Ask&lt;Get, int&gt;(reply =&gt; new Get(reply), timeout)</c> for a <c>Mailbox&lt;Get&gt;</c>. The reply's
/// type alone, <c>inbox.Ask&lt;int&gt;(...)</c>, does not compile: C# does not infer an extension's receiver type
/// while the call names some of the type arguments.
/// </para>
/// <para>
/// Extensions, not members of the mailbox, so that the mailbox knows nothing of replies: they use its public sending
/// and its receiver, and an ask that finds no receiver to watch waits for the next one through the mailbox's bind
/// seam (<see cref="ReceiverBinds"/>). Off the hot path: an ask makes its event or task, its shared state, its reply
/// target and a watch on the server.
/// </para>
/// </remarks>
public static class MailboxAsking
{
    /// <typeparam name="T">The type of the mailbox's messages.</typeparam>
    /// <param name="mailbox">The mailbox the request is sent to; its receiver is the server.</param>
    extension<T>(Mailbox<T> mailbox)
    {
        /// <summary>
        /// Sends a request made by <paramref name="request"/> around a new one-shot reply target, and returns the event
        /// the calling green thread yields to wait for the answer (Erlang's <c>gen_server:call</c>, Akka.NET's
        /// <c>Ask</c>): it completes when the server replies, when the server thread ends first, or when
        /// <paramref name="timeout"/> has passed, whichever comes first.
        /// </summary>
        /// <remarks>
        /// <para>
        /// <b>The server</b> is the green thread receiving from this mailbox when the request is sent
        /// (<see cref="Mailbox{T}.Receiver"/>): the one spawned bound to it
        /// (<see cref="Scheduler.SpawnReceiver{T}"/>), or
        /// the first to receive from it. The ask watches it: if it ends before replying (normally, by a fault, or
        /// stopped, before or after its first receive), the ask fails at once with a <see cref="ServerEndedException"/>
        /// carrying its end, not at the timeout, and so does an ask sent after that end; the requests it left queued,
        /// and later ones, are dead letters (a bounded mailbox, completed by that end, refuses later ones instead).
        /// A mailbox with no receiver yet, or between two receivers of a mailbox that outlives them
        /// (<see cref="Mailbox{T}.OutlivesReceiver"/>), has no server to watch yet: the ask watches the next green
        /// thread to become its receiver, so a server that ends with the request still queued (a dead letter) fails the
        /// ask too; but a thread that never receives never becomes the server, and such an ask waits for its timeout.
        /// Bind the mailbox to its server at its spawn to close that gap. A mailbox read by async code has no server:
        /// only the timeout bounds the wait. The watch does not count as observing the server's fault.
        /// </para>
        /// <para>
        /// <b>Late answers.</b> Each request has its own reply target, so an answer that comes after the ask completed
        /// without it (timed out, or its server seen to end), or after the caller was stopped while waiting, goes to
        /// the dead letters of the caller's scheduler (<see cref="DeadLetterReason.LateReply"/>), never into a mailbox
        /// of the caller.
        /// </para>
        /// <para>
        /// The request is sent here, and the timeout starts here, on the scheduler's clock. A bounded mailbox must have
        /// room: a green thread cannot wait for it inside an ask, so a full one refuses the request with an exception
        /// (yield a <see cref="Mailbox{T}.Put"/> of an ordinary message to wait for room).
        /// </para>
        /// </remarks>
        /// <typeparam name="TReply">The reply's type.</typeparam>
        /// <param name="request">Makes the request around its reply target; called once, here.</param>
        /// <param name="timeout">
        /// The longest wait for the answer, from now: from zero to <see cref="Event.MaxSleep"/>, or
        /// <see cref="Timeout.InfiniteTimeSpan"/> to wait for a reply or the server's end only.
        /// </param>
        /// <returns>The event to yield; then <see cref="AskEvent{T}.Value"/> holds the reply.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="request"/> is null, or returned null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or longer than <see cref="Event.MaxSleep"/>.</exception>
        /// <exception cref="InvalidOperationException">
        /// The caller is not a green thread (use <see cref="extension{T}(Mailbox{T}).AskAsync{TReply}"/>); or it is
        /// this mailbox's receiver, which would wait for itself; or the mailbox is bounded and full.
        /// </exception>
        /// <exception cref="ChannelClosedException">The mailbox was completed, other than by its server's end; the request was not sent.</exception>
        /// <example>
        /// <code>
        /// record Get(string Key, ReplyTo&lt;int&gt; Reply);
        ///
        /// var count = counter.Ask((ReplyTo&lt;int&gt; reply) =&gt; new Get("apples", reply), TimeSpan.FromSeconds(5));
        /// yield return count;
        /// if (count.Exception is TimeoutException) { /* no answer in 5 s; a late one goes to the dead letters */ }
        /// else Console.WriteLine(count.Value);   // throws ServerEndedException if the counter ended first
        /// </code>
        /// </example>
        public AskEvent<TReply> Ask<TReply>(Func<ReplyTo<TReply>, T> request, TimeSpan timeout)
        {
            ArgumentNullException.ThrowIfNull(mailbox);
            ArgumentNullException.ThrowIfNull(request);
            CheckTimeout(timeout);
            var caller = GreenThread.Current
                ?? throw new InvalidOperationException($"Ask on {mailbox} was called outside a green thread, which has no thread to park: async code uses AskAsync.");
            var server = ServerFor(mailbox, caller);
            var ask = new AskEvent<TReply>(caller, mailbox, timeout);
            var pending = ask.Pending;
            var message = MakeRequest(mailbox, request, pending);

            // The span before the deadline and the watch: either may decide the ask at once, and its decision ends it.
            var span = Tracing.Seen ? Tracing.Asking(mailbox.Name) : null;
            pending.Span = span;
            pending.Arm(server);
            bool sent;
            try
            {
                sent = mailbox.TrySend(message);
            }
            catch
            {
                pending.Unsent();
                throw;
            }
            finally
            {
                if (span is not null)
                {
                    Tracing.Asked(span);
                }
            }

            if (!sent)
            {
                if (RefusedForServerEnd(mailbox, pending, server))
                {
                    return ask;
                }

                pending.Unsent();
                throw mailbox.IsCompleted
                    ? new ChannelClosedException($"{caller} asked {mailbox}, which was completed: the request was not sent.", mailbox.CompletionError)
                    : new InvalidOperationException($"{caller} asked {mailbox}, which is bounded ({mailbox.Capacity}) and full: the request was not sent. An ask does not wait for room; yield Put to wait, or make the mailbox larger.");
            }

            if (server is null)
            {
                WatchNextReceiver(mailbox, pending);
            }

            return ask;
        }

        /// <summary>
        /// Sends a request made by <paramref name="request"/> around a new one-shot reply target, and returns a task
        /// that completes with the answer: for async code, what <see cref="extension{T}(Mailbox{T}).Ask{TReply}"/> is
        /// for a green thread. It fails with a <see cref="ServerEndedException"/> if the server thread ends first, with
        /// a <see cref="TimeoutException"/> once <paramref name="timeout"/> has passed, and is canceled by
        /// <paramref name="cancellationToken"/>.
        /// </summary>
        /// <remarks>
        /// <para>
        /// The server, and late answers, as for <see cref="extension{T}(Mailbox{T}).Ask{TReply}"/>: the server watched
        /// is the mailbox's receiver when the request is sent, and an answer after the task completed without it is a
        /// dead letter (<see cref="DeadLetterReason.LateReply"/>) of the receiver's scheduler.
        /// </para>
        /// <para>
        /// The timeout runs from the moment the request is in the mailbox, on the clock of the server's scheduler; with
        /// no server to watch (see <see cref="extension{T}(Mailbox{T}).Ask{TReply}"/>), on the system clock, since
        /// nothing else would end the wait if that scheduler were disposed. A full bounded mailbox is waited on for
        /// room first, as <see cref="Mailbox{T}.SendAsync"/> waits, bounded only by
        /// <paramref name="cancellationToken"/>. The task's continuations run asynchronously, never on the server's
        /// worker or the timer thread.
        /// </para>
        /// </remarks>
        /// <typeparam name="TReply">The reply's type.</typeparam>
        /// <param name="request">Makes the request around its reply target; called once, here.</param>
        /// <param name="timeout">The longest wait for the answer: from zero to <see cref="Event.MaxSleep"/>, or <see cref="Timeout.InfiniteTimeSpan"/>.</param>
        /// <param name="cancellationToken">Cancels the ask; an answer after that goes to the dead letters.</param>
        /// <returns>A task that completes with the reply.</returns>
        /// <exception cref="ArgumentNullException"><paramref name="request"/> is null, or returned null.</exception>
        /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or longer than <see cref="Event.MaxSleep"/>.</exception>
        /// <exception cref="InvalidOperationException">The caller is a green thread that receives from this mailbox, and would wait for itself.</exception>
        /// <example>
        /// <code>
        /// int apples = await counter.AskAsync((ReplyTo&lt;int&gt; reply) =&gt; new Get("apples", reply), TimeSpan.FromSeconds(5));
        /// </code>
        /// </example>
        public Task<TReply> AskAsync<TReply>(Func<ReplyTo<TReply>, T> request, TimeSpan timeout, CancellationToken cancellationToken = default)
        {
            ArgumentNullException.ThrowIfNull(mailbox);
            ArgumentNullException.ThrowIfNull(request);
            CheckTimeout(timeout);
            if (cancellationToken.IsCancellationRequested)
            {
                return Task.FromCanceled<TReply>(cancellationToken);
            }

            var caller = GreenThread.Current;
            var server = ServerFor(mailbox, caller);
            var scheduler = server?.Scheduler ?? mailbox.Receiver?.Scheduler ?? caller?.Scheduler;
            var ask = new AskTask<TReply>(mailbox, scheduler, timeout, cancellationToken);
            var message = MakeRequest(mailbox, request, ask.Pending);
            var span = Tracing.Seen ? Tracing.Asking(mailbox.Name) : null;
            ask.Pending.Span = span;
            ValueTask send;
            try
            {
                send = mailbox.SendAsync(message, cancellationToken);
            }
            finally
            {
                if (span is not null)
                {
                    Tracing.Asked(span);
                }
            }

            if (!send.IsCompletedSuccessfully)
            {
                return SendThenAskAsync(mailbox, send, ask, server);
            }

            ask.Pending.Arm(server);
            if (server is null)
            {
                WatchNextReceiver(mailbox, ask.Pending);
            }

            ask.WatchToken();
            return ask.Task;
        }
    }

    /// <summary>
    /// The async ask's send waited for room in a bounded mailbox, or was refused: arms the ask once the request is in.
    /// A refusal because the server ended fails the ask with that end, as a request it had queued would.
    /// </summary>
    private static async Task<TReply> SendThenAskAsync<T, TReply>(Mailbox<T> mailbox, ValueTask send, AskTask<TReply> ask, GreenThread? server)
    {
        try
        {
            await send.ConfigureAwait(false);
        }
        catch (ChannelClosedException) when (mailbox.EndedReceiver is { } ended && (server is null || server == ended))
        {
            server = ended;
        }
        catch
        {
            ask.Pending.Unsent();
            throw;
        }

        ask.Pending.Arm(server);
        if (server is null)
        {
            WatchNextReceiver(mailbox, ask.Pending);
        }

        ask.WatchToken();
        return await ask.Task.ConfigureAwait(false);
    }

    /// <summary>
    /// Whether a bounded mailbox refused the request because its receiver ended, which completed it: then the ask
    /// fails with a <see cref="ServerEndedException"/>, as one whose request was queued at that end does, not with
    /// the refusal. The ask watches that receiver (armed already if it was the server; a receiver that bound and
    /// ended since the ask looked, here), and the watch fails it once the end is decided, which follows the
    /// completion at once. The asking thread.
    /// </summary>
    private static bool RefusedForServerEnd<T, TReply>(Mailbox<T> mailbox, PendingReply<TReply> pending, GreenThread? server)
    {
        if (mailbox.EndedReceiver is not { } ended || (server is not null && server != ended))
        {
            return false;
        }

        if (server is null)
        {
            pending.WatchServer(ended);
        }

        return true;
    }

    /// <summary>Refuses a timeout an ask cannot keep.</summary>
    private static void CheckTimeout(TimeSpan timeout)
    {
        if ((timeout < TimeSpan.Zero && timeout != Timeout.InfiniteTimeSpan) || timeout > Event.MaxSleep)
        {
            throw new ArgumentOutOfRangeException(nameof(timeout), timeout, $"The timeout of an ask must last from zero to {Event.MaxSleepText}, or be Timeout.InfiniteTimeSpan.");
        }
    }

    /// <summary>
    /// Makes an ask that found no receiver to watch watch the next green thread to become <paramref name="mailbox"/>'s
    /// receiver: the waiter's side (step 1) of the handshake in <see cref="ReceiverBinds"/>. Not for a mailbox read by
    /// async code, which never gets one. The asking thread, once the request is sent.
    /// </summary>
    private static void WatchNextReceiver<T>(Mailbox<T> mailbox, IUnservedAsk ask)
    {
        if (mailbox.HasChannelReader)
        {
            return;
        }

        // Records the ask and publishes the listener, then a full fence; only then is the receiver read.
        UnservedAsks.Add(mailbox, ask);
        var receiver = mailbox.Receiver;
        if (receiver is null || (mailbox.OutlivesReceiver && receiver.IsCompleted))
        {
            // No live receiver yet: the bind to come will see the listener (step 3).
            return;
        }

        UnservedAsks.Serve(mailbox, receiver);
    }

    /// <summary>
    /// The green thread an ask watches: the receiver, unless there is none to watch (no receiver yet, async code
    /// reads the mailbox, or one that outlives its receivers is between two); refuses a caller that is the receiver.
    /// </summary>
    private static GreenThread? ServerFor<T>(Mailbox<T> mailbox, GreenThread? caller)
    {
        var receiver = mailbox.Receiver;
        if (receiver is null || mailbox.HasChannelReader)
        {
            return null;
        }

        if (receiver == caller)
        {
            throw new InvalidOperationException($"{caller} asked {mailbox}, which it receives from itself: it would wait for its own reply until the timeout.");
        }

        return mailbox.OutlivesReceiver && receiver.IsCompleted ? null : receiver;
    }

    /// <summary>Makes the request around the ask's reply target, refusing a null one.</summary>
    private static T MakeRequest<T, TReply>(Mailbox<T> mailbox, Func<ReplyTo<TReply>, T> request, PendingReply<TReply> pending)
    {
        var message = request(pending.ReplyTo);
        if (message is null)
        {
            throw new ArgumentNullException(nameof(request), $"The request made for an ask of {mailbox} was null.");
        }

        pending.Forwarded = message as IForwardedRequest;
        return message;
    }
}
