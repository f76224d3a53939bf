using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// One request's wait for its reply, shared by the green and the async ask: its outcome, decided once by whichever
/// comes first of the reply (<see cref="ReplyTo{T}"/>), the timeout (this entry's deadline), the end of the server
/// (this target's watch on it), a cancellation, or the caller's abandonment; then its <see cref="IReplyListener"/> is told.
/// </summary>
/// <remarks>
/// <para>
/// The decision is a compare-and-swap of <see cref="_state"/> from <see cref="ReplyOutcome.Pending"/> to
/// <see cref="ReplyOutcome.Deciding"/>; the winner writes the value or exception, publishes the final state with a
/// full fence, then withdraws the other parties (cancels the deadline, removes the watch) and tells the listener. A
/// loser does nothing, except a reply, which becomes a dead letter: once the caller has stopped waiting, a reply
/// must not vanish, nor reach it later (Erlang's process aliases, EEP 53, fixed the same leak for
/// <c>gen_server:call</c>).
/// </para>
/// <para>
/// Watching the server, not the caller's mailbox, is what makes a request to a thread that ends before replying
/// fail at once: the watch's message comes as the server ends. The watch does not observe the server's fault
/// (<see cref="IUnobservingTarget"/>): the failed call is the caller's news, and the fault is still its
/// supervisor's or joiner's to see.
/// </para>
/// <para>
/// The deadline and the watch are armed by the asking thread before the request is sent, but an ended server's watch
/// fires at once, and a server ending on another worker may fire it while the deadline is being armed; so each is
/// published, fenced, then checked against a decision already made, and the decider checks them after its own fenced
/// publication: one of the two sees the other.
/// </para>
/// </remarks>
/// <typeparam name="T">The reply's type.</typeparam>
internal sealed class PendingReply<T> : TimerEntry, IMessageTarget<ThreadExit>, IUnobservingTarget, IUnservedAsk
{
    /// <summary>A <see cref="ReplyOutcome"/>: Pending, then Deciding, then final, each once.</summary>
    private int _state;

    /// <summary>Set by the first <see cref="ReplyTo{T}.Reply"/> or <see cref="ReplyTo{T}.Fail"/>: a reply target takes one answer.</summary>
    private int _answered;

    /// <summary>The reply; written by the decider before the final state.</summary>
    private T _value = default!;

    /// <summary>What reading the outcome throws; written by the decider before the final state; null for a reply.</summary>
    private Exception? _error;

    /// <summary>The watch on the server, once armed; null if no server is known.</summary>
    private ThreadWatch? _watch;

    /// <summary>The deadline on the system clock, for an async ask with no scheduler to time it.</summary>
    private ITimer? _systemTimer;

    /// <summary>The timer queue the deadline is in, once armed; null with no timeout or with <see cref="_systemTimer"/>.</summary>
    private TimerQueue? _timers;

    private readonly IReplyListener _listener;

    internal PendingReply(IReplyListener listener, object target, GreenThread? caller, Scheduler? scheduler, TimeSpan timeout)
    {
        _listener = listener;
        Target = target;
        Caller = caller;
        Scheduler = scheduler;
        Timeout = timeout;
        ReplyTo = new ReplyTo<T>(this);
    }

    /// <summary>Gets the target the server receives from.</summary>
    internal ReplyTo<T> ReplyTo { get; }

    /// <summary>Gets the mailbox the request went to, for messages.</summary>
    internal object Target { get; }

    /// <summary>Gets the green thread that asked; null for an async caller.</summary>
    internal GreenThread? Caller { get; }

    /// <summary>Gets the scheduler whose clock times the ask and whose dead letters take a late reply; null if none was known.</summary>
    internal Scheduler? Scheduler { get; }

    /// <summary>Gets the longest wait for the reply, or <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>.</summary>
    internal TimeSpan Timeout { get; }

    /// <summary>Gets the server watched, if any.</summary>
    internal GreenThread? Server => Volatile.Read(ref _watch)?.Thread;

    /// <summary>
    /// Gets or sets the request, when the mailbox's server forwards it elsewhere (<see cref="IForwardedRequest"/>): set
    /// once, as the request is made, before the ask is sent.
    /// </summary>
    internal IForwardedRequest? Forwarded { get; set; }

    /// <summary>The ask's span, open until the outcome is decided; null outside a trace. Set by the asker before the request is sent.</summary>
    internal System.Diagnostics.Activity? Span { get; set; }

    /// <summary>Gets the outcome: <see cref="ReplyOutcome.Pending"/> until it is final (a decision being written reads as pending).</summary>
    internal ReplyOutcome Outcome
    {
        get
        {
            var state = (ReplyOutcome)Volatile.Read(ref _state);
            return state == ReplyOutcome.Deciding ? ReplyOutcome.Pending : state;
        }
    }

    /// <summary>Gets a value indicating whether the outcome is final.</summary>
    public bool IsDecided => Volatile.Read(ref _state) > (int)ReplyOutcome.Deciding;

    /// <summary>
    /// Watches <paramref name="server"/> and starts the deadline. The asking thread, once, before the request is sent.
    /// </summary>
    internal void Arm(GreenThread? server)
    {
        if (server is not null)
        {
            WatchServer(server);
        }

        if (Timeout == System.Threading.Timeout.InfiniteTimeSpan || IsDecided)
        {
            return;
        }

        // A scheduler's disposal forgets its pending deadlines. That ends a green caller's wait (it is abandoned) and a
        // watched server of that scheduler (it is stopped), but would leave an async ask with neither waiting for good:
        // that one is timed by the system clock.
        if (Scheduler is { } scheduler && (Caller is not null || server?.Scheduler == scheduler))
        {
            var timers = scheduler.Timers;
            Volatile.Write(ref _timers, timers);
            timers.Schedule(this, timers.DeadlineAfter(Timeout));
            Interlocked.MemoryBarrier();
            if (IsDecided)
            {
                timers.Cancel(this);
            }
        }
        else
        {
            var timer = TimeProvider.System.CreateTimer(static state => ((PendingReply<T>)state!).Fire(), this, Timeout, System.Threading.Timeout.InfiniteTimeSpan);
            Volatile.Write(ref _systemTimer, timer);
            Interlocked.MemoryBarrier();
            if (IsDecided)
            {
                timer.Dispose();
            }
        }
    }

    /// <summary>
    /// Decides the outcome unless it is decided; true if this call did. Then withdraws the deadline and the watch and
    /// tells the listener. Any thread.
    /// </summary>
    internal bool TryDecide(ReplyOutcome outcome, T value, Exception? error)
    {
        if (Interlocked.CompareExchange(ref _state, (int)ReplyOutcome.Deciding, (int)ReplyOutcome.Pending) != (int)ReplyOutcome.Pending)
        {
            return false;
        }

        _value = value;
        _error = error;

        // A full fence: Arm, which publishes the deadline and the watch before looking here, or this, sees the other.
        Interlocked.Exchange(ref _state, (int)outcome);
        if (outcome != ReplyOutcome.TimedOut)
        {
            Volatile.Read(ref _timers)?.Cancel(this);
            Volatile.Read(ref _systemTimer)?.Dispose();
        }

        if (outcome != ReplyOutcome.ServerEnded)
        {
            Volatile.Read(ref _watch)?.Remove();
        }

        if (Span is { } span)
        {
            Tracing.Answered(span, error);
        }

        _listener.Completed();
        return true;
    }

    /// <summary>
    /// Takes the one answer a reply target allows; false if it was answered before. Any thread.
    /// </summary>
    internal bool TryTakeAnswer() => Interlocked.Exchange(ref _answered, 1) == 0;

    /// <summary>Returns the reply, or throws what the outcome says. Only once <see cref="IsDecided"/>.</summary>
    internal T GetResult()
    {
        if (_error is { } error)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(error);
        }

        return _value;
    }

    /// <summary>Gets what <see cref="GetResult"/> throws, or null for a reply. Only once <see cref="IsDecided"/>.</summary>
    internal Exception? Error => _error;

    /// <summary>
    /// A reply or failure that lost the decision: it reached no caller, so it goes to the dead letters of the ask's
    /// scheduler, or of the replier's if the ask had none. The replier's thread.
    /// </summary>
    internal void DeadLetter(object? answer)
    {
        var scheduler = Scheduler ?? GreenThread.Current?.Scheduler;
        if (scheduler is null)
        {
            // An async caller with no scheduler known, answered from outside any scheduler: nowhere to count it, so
            // it is at least not silent.
            Console.Error.WriteLine($"ThreadIterators: a late answer to {ReplyTo} reached no caller and no scheduler's dead letters: {answer}");
            return;
        }

        scheduler.DeadLettered(answer, ReplyTo, Caller, DeadLetterReason.LateReply);
    }

    /// <summary>Ends an ask whose request was not sent (refused, or the send threw), so it arms nothing for long.</summary>
    internal void Unsent() =>
        TryDecide(ReplyOutcome.Abandoned, default!, new InvalidOperationException($"{Describe()}: the request was not sent."));

    /// <summary>Gets the outcome in words, for the reply target's and the event's <c>ToString</c>.</summary>
    internal string OutcomeText => Outcome switch
    {
        ReplyOutcome.Pending => "waiting",
        ReplyOutcome.Replied => "replied",
        ReplyOutcome.Failed => "failed",
        ReplyOutcome.ServerEnded => "server ended",
        ReplyOutcome.TimedOut => "timed out",
        ReplyOutcome.Canceled => "canceled",
        _ => "abandoned",
    };

    /// <summary>The deadline passed: the ask times out, unless it was decided.</summary>
    internal override void Fire() =>
        TryDecide(ReplyOutcome.TimedOut, default!, new TimeoutException($"{Describe()} had no reply within {Timeout}."));

    /// <inheritdoc/>
    public void WatchServer(GreenThread server)
    {
        // Fires here, at once, if the server has ended already.
        var watch = server.Watch(this);
        Volatile.Write(ref _watch, watch);
        Interlocked.MemoryBarrier();
        if (IsDecided)
        {
            watch.Remove();
        }
    }

    /// <summary>Names the ask in messages: who asked whom.</summary>
    internal string Describe() => Forwarded is { } forwarded
        ? $"{(Caller is null ? "An async caller" : Caller.ToString())} asking {DestinationOf(forwarded)} (through {Target})"
        : $"{(Caller is null ? "An async caller" : Caller.ToString())} asking {Target}{(Server is { } server ? $" (served by {server})" : string.Empty)}";

    /// <summary>
    /// The request's destination: user code, read as a timeout's or a stop's error is made, which must not leave the
    /// ask undecided by throwing.
    /// </summary>
    private static string DestinationOf(IForwardedRequest forwarded)
    {
        try
        {
            return forwarded.Destination;
        }
        catch (Exception exception) when (exception is not OutOfMemoryException)
        {
            return $"{forwarded.GetType().Name} (whose Destination threw {exception.GetType().Name}: {exception.Message})";
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"the deadline of {Describe()}";

    /// <summary>The watch's message: the server ended. The ending worker.</summary>
    bool IMessageTarget<ThreadExit>.TrySend(ThreadExit message)
    {
        TryDecide(ReplyOutcome.ServerEnded, default!, new ServerEndedException(message, Describe()));
        return true;
    }

    void IMessageTarget<ThreadExit>.Send(ThreadExit message) => ((IMessageTarget<ThreadExit>)this).TrySend(message);

    ValueTask IMessageTarget<ThreadExit>.SendAsync(ThreadExit message, CancellationToken cancellationToken)
    {
        ((IMessageTarget<ThreadExit>)this).TrySend(message);
        return ValueTask.CompletedTask;
    }

    Event IMessageTarget<ThreadExit>.Put(ThreadExit message) => throw new NotSupportedException($"{this} takes only the end of its server.");
}
