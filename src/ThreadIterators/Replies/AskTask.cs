using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// The task an async caller awaits for its ask (<see cref="MailboxAsking.extension{T}(Mailbox{T}).AskAsync{TReply}"/>):
/// completed with the outcome once it is decided, continuations run asynchronously so the deciding thread (a server's
/// worker, the timer thread) never runs the caller's code. A cancellation of the caller's token decides the ask as canceled.
/// </summary>
/// <typeparam name="T">The reply's type.</typeparam>
internal sealed class AskTask<T> : TaskCompletionSource<T>, IReplyListener
{
    private readonly CancellationToken _token;

    private CancellationTokenRegistration _registration;

    internal AskTask(object target, Scheduler? scheduler, TimeSpan timeout, CancellationToken token)
        : base(TaskCreationOptions.RunContinuationsAsynchronously)
    {
        _token = token;
        Pending = new PendingReply<T>(this, target, caller: null, scheduler, timeout);
    }

    /// <summary>Gets the ask's shared state.</summary>
    internal PendingReply<T> Pending { get; }

    /// <summary>Lets the caller's token cancel the ask. After it is armed, before or after the request is sent.</summary>
    internal void WatchToken()
    {
        if (!_token.CanBeCanceled)
        {
            return;
        }

        // Runs at once, here, if the token is canceled already.
        _registration = _token.UnsafeRegister(static state => ((AskTask<T>)state!).Cancel(), this);
        if (Pending.IsDecided)
        {
            _registration.Unregister();
        }
    }

    /// <inheritdoc/>
    void IReplyListener.Completed()
    {
        // Does not wait for a cancellation callback that is running: it is this call's caller, or it lost the decision.
        _registration.Unregister();
        switch (Pending.Outcome)
        {
            case ReplyOutcome.Replied:
                TrySetResult(Pending.GetResult());
                break;
            case ReplyOutcome.Canceled:
                TrySetCanceled(_token);
                break;
            default:
                TrySetException(Pending.Error!);
                break;
        }
    }

    private void Cancel() => Pending.TryDecide(ReplyOutcome.Canceled, default!, new OperationCanceledException($"{Pending.Describe()} was canceled.", _token));
}
