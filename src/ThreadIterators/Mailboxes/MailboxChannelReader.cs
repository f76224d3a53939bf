using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace ThreadIterators;

// Async code as a mailbox's receiver. Senders are untouched: the reader parks with the receiver's own park mark (the
// header of Mailbox.Receiving.cs), and the sender whose append takes that mark wakes it.
//   1. Attach (Mailbox.AsChannelReader), under a lock on the mailbox's receive event, one attach at a time: refuse if a
//      green receiver is alive, or has ended in a mailbox that does not outlive it; compare-and-swap _chooser from null
//      to the reader; look at _receiver again after that full fence, and if a green thread has bound meanwhile, swap
//      _chooser back and refuse; refuse too if _chooser no longer holds the reader (a thread that bound before the swap
//      and has ended since wrote it in a choice); else mark the reader attached. A green thread's Bind swaps _receiver
//      and then looks at _chooser (Dekker's pattern: one of the two sees the other); if it holds a reader not attached
//      yet, the bind waits on the attach's lock for its decision, and is refused only if the reader was attached, so
//      the two are never both refused. _chooser holds the reader for good: the choice branch a green receiver parks for
//      lives in the same field, which a mailbox with an async receiver never needs. A stop
//      (Mailbox.TryInterruptReceive) counts an unattached reader in _chooser as no chooser: the attach will fail while
//      the thread lives, and the mark is the thread's. A late stop of a receiver that has ended, which takes the mark
//      of the attached reader that followed it, wakes the reader (an early true) rather than put the mark back under
//      the reader's own take-backs.
//   2. WaitToReadAsync, under the lock: a message already taken into the reader's one-item buffer, or taken now
//      (TryTake), answers true at once, with no allocation; past the end it answers false, or the completion's error.
//      Otherwise reset the reusable ManualResetValueTaskSourceCore and park as a green receiver does (TryPark, looking
//      again whenever the park fails: a message or the end arrived), and hand out a ValueTask over the core. A second
//      wait while one is outstanding is refused. A cancelable token is registered after the park.
//   3. The sender that takes the mark (Mailbox.WakeReceiver) finds the attached reader in _chooser, counts the wake as
//      for a green receiver, and queues the reader itself (an IThreadPoolWorkItem) to the thread pool, which completes
//      the core there (Wake, Execute). A sender that finds an unattached reader (step 1 refused it after a green thread
//      bound and parked) wakes the green receiver, whose mark it is.
//   4. The reader's side may take its own mark back, under the lock (Mailbox.TakeParkMark): a read while the wait is
//      parked (the receiver side must not take while parked) ends the wait with true; a cancellation ends it canceled,
//      only if its token is the outstanding wait's (a callback of an earlier wait's token, still running, finds another
//      token and does nothing). Owning the mark is what makes exactly one party, a sender or the take-back, end each
//      wait. Every ending goes through the thread pool, so no consumer code runs under the lock or on a sender.
//   5. GetResult reads the core's result, then clears the outstanding wait and unregisters the token (Unregister, never
//      Dispose: a running callback waits for the lock, not the other way round). A GetResult for another version, or
//      before the wait completed (a value task awaited twice), only lets the core throw, and leaves the outstanding
//      wait alone.
//   6. Completion: the mailbox's End tells an attached reader (OnMailboxCompleted), which, if someone holds its
//      Completion, looks (step 2's take) so that an empty completed mailbox completes Completion without another read;
//      a parked wait is woken by the freeze's mark, as a green receiver is.
// Cost on the hop: none for green receivers. _chooser is an object; the send path's wake reads it as before and, only
// when it is set, tells a choice branch from a reader by its type.

/// <summary>
/// Async code as a <see cref="Mailbox{T}"/>'s receiver (<see cref="Mailbox{T}.AsChannelReader"/>): reads take from
/// the mailbox's queue, and a wait parks with the receiver's own park mark, which the sender that takes it answers by
/// completing the wait on the thread pool (the steps are in this file's header).
/// </summary>
/// <remarks>
/// The reader side (every member but <see cref="Wake"/>) runs under <see cref="_gate"/>, so calls may come from any
/// thread, one after another or at once: the mailbox's receiver-only state is touched by one of them at a time.
/// <see cref="Wake"/> is the sender that took the park mark, on any thread, without the lock: owning the mark makes it
/// the one party that ends that wait, as a take-back under the lock is when it gets the mark first.
/// </remarks>
/// <typeparam name="T">The type of the messages.</typeparam>
internal sealed class MailboxChannelReader<T> : ChannelReader<T>, IValueTaskSource<bool>, IThreadPoolWorkItem
{
    private readonly Mailbox<T> _mailbox;

    /// <summary>Orders the reader side's calls; a private object, since the reader itself is handed to user code.</summary>
    private readonly object _gate = new();

    /// <summary>The wait handed out by <see cref="WaitToReadAsync"/>; completed only from <c>Execute</c>, on the thread pool.</summary>
    private ManualResetValueTaskSourceCore<bool> _wait;

    /// <summary>A message taken from the mailbox by a peek or a wait's look, not yet read.</summary>
    private T _item = default!;

    private bool _hasItem;

    /// <summary>Whether a wait was handed out and its result not yet taken (<c>GetResult</c>).</summary>
    private bool _outstanding;

    /// <summary>Whether the outstanding wait may still hold the park mark: set by the park, cleared by the first take-back that finds the mark gone or takes it.</summary>
    private bool _markHeld;

    /// <summary>The token of the outstanding wait, to tell its cancellation from a callback of an earlier wait's token still running.</summary>
    private CancellationToken _waitToken;

    private CancellationTokenRegistration _registration;

    /// <summary>How the outstanding wait ends, read by <c>Execute</c>: null for true (a message may be there).</summary>
    private Exception? _ending;

    /// <summary>Whether a read found the mailbox completed and drained.</summary>
    private bool _ended;

    private TaskCompletionSource? _completion;

    /// <summary>See <see cref="IsAttached"/>.</summary>
    private volatile bool _attached;

    internal MailboxChannelReader(Mailbox<T> mailbox)
    {
        _mailbox = mailbox;

        // Completed from Execute, already on a thread-pool thread, so the consumer's continuation runs there inline.
        _wait.RunContinuationsAsynchronously = false;
    }

    /// <summary>
    /// Gets a value indicating whether the reader is the mailbox's receiver. A sender that takes a park mark and finds
    /// an unattached reader in the mailbox wakes the green receiver instead (see <see cref="Mailbox{T}.AsChannelReader"/>).
    /// </summary>
    internal bool IsAttached => _attached;

    /// <inheritdoc/>
    public override bool CanCount => true;

    /// <inheritdoc/>
    public override bool CanPeek => true;

    /// <inheritdoc/>
    public override int Count
    {
        get
        {
            lock (_gate)
            {
                return _mailbox.Count + (_hasItem ? 1 : 0);
            }
        }
    }

    /// <inheritdoc/>
    public override Task Completion
    {
        get
        {
            lock (_gate)
            {
                if (_completion is null)
                {
                    _completion = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

                    // Already drained to the end, perhaps: a channel's Completion completes without another read.
                    _ = Look();
                    if (_ended)
                    {
                        CompleteCompletion();
                    }
                }

                return _completion.Task;
            }
        }
    }

    /// <inheritdoc/>
    public override bool TryRead([MaybeNullWhen(false)] out T item)
    {
        lock (_gate)
        {
            if (Look())
            {
                item = _item;
                _item = default!;
                _hasItem = false;
                return true;
            }

            item = default!;
            return false;
        }
    }

    /// <inheritdoc/>
    public override bool TryPeek([MaybeNullWhen(false)] out T item)
    {
        lock (_gate)
        {
            item = Look() ? _item : default!;
            return _hasItem;
        }
    }

    /// <inheritdoc/>
    public override ValueTask<bool> WaitToReadAsync(CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<bool>(cancellationToken);
        }

        lock (_gate)
        {
            if (_outstanding)
            {
                throw new InvalidOperationException($"WaitToReadAsync was called on the reader of {_mailbox} while its previous wait was not awaited; the reader is a single reader, one wait at a time.");
            }

            if (Look())
            {
                return new ValueTask<bool>(true);
            }

            if (_ended)
            {
                return Ended();
            }

            // Reset before the park: the moment the mark is set, a sender may end this wait.
            _wait.Reset();
            _ending = null;
            while (!_mailbox.TryPark())
            {
                // A message arrived since the look, or the end, or the segment changed: look again.
                if (Look())
                {
                    return new ValueTask<bool>(true);
                }

                if (_ended)
                {
                    return Ended();
                }
            }

            OsThreadContext.Current.CountMailboxWait();
            _outstanding = true;
            _markHeld = true;
            _waitToken = cancellationToken;
            if (cancellationToken.CanBeCanceled)
            {
                // May run the callback at once, on this thread, which holds the lock again (monitors are reentrant).
                _registration = cancellationToken.UnsafeRegister(static (state, token) => ((MailboxChannelReader<T>)state!).Cancel(token), this);
            }

            return new ValueTask<bool>(this, _wait.Version);
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"the channel reader of {_mailbox}";

    /// <inheritdoc/>
    bool IValueTaskSource<bool>.GetResult(short token)
    {
        bool current;
        lock (_gate)
        {
            current = _outstanding && token == _wait.Version && _wait.GetStatus(token) != ValueTaskSourceStatus.Pending;
        }

        if (!current)
        {
            // Misuse (a value task awaited twice, or read before it completed): the core throws, and the wait that
            // is outstanding now, if any, is left as it is.
            return _wait.GetResult(token);
        }

        try
        {
            return _wait.GetResult(token);
        }
        finally
        {
            lock (_gate)
            {
                _outstanding = false;
                _waitToken = default;

                // Unregister, never Dispose: a callback running now waits for this lock, and finds no wait of its token.
                _registration.Unregister();
                _registration = default;
            }
        }
    }

    /// <inheritdoc/>
    ValueTaskSourceStatus IValueTaskSource<bool>.GetStatus(short token) => _wait.GetStatus(token);

    /// <inheritdoc/>
    void IValueTaskSource<bool>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _wait.OnCompleted(continuation, state, token, flags);

    /// <summary>Ends the outstanding wait, on a thread-pool thread: the one completion each park gets.</summary>
    void IThreadPoolWorkItem.Execute()
    {
        if (_ending is { } ending)
        {
            _wait.SetException(ending);
        }
        else
        {
            _wait.SetResult(true);
        }
    }

    /// <summary>Makes the reader the mailbox's receiver. Once, by <see cref="Mailbox{T}.AsChannelReader"/>, before anyone has it.</summary>
    internal void Attach() => _attached = true;

    /// <summary>
    /// Ends the parked wait with true: a message was linked, or the end. The sender (or completion) that took the park
    /// mark; any thread, without the lock.
    /// </summary>
    internal void Wake() => ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);

    /// <summary>The mailbox was completed: lets a reader that is not waiting see the end, for <see cref="Completion"/>. The completing thread.</summary>
    internal void OnMailboxCompleted()
    {
        lock (_gate)
        {
            // Only for a Completion someone holds: otherwise the next read sees the end, and a look now might take a
            // message the consumer is not asking for yet. A wait still parked ends with true, as the freeze would.
            if (_completion is not null)
            {
                _ = Look();
            }
        }
    }

    /// <summary>
    /// Under the lock: takes back the park mark of a wait still parked, ending that wait with true; then makes sure a
    /// message is in <see cref="_item"/> if the mailbox has one. Notes the end if the mailbox is completed and drained.
    /// </summary>
    private bool Look()
    {
        Debug.Assert(Monitor.IsEntered(_gate), "The reader's park mark, held message and end are read and written without the reader's lock.");
        if (_markHeld)
        {
            // The receiver side may not take while parked; a sender that took the mark first ends the wait itself.
            _markHeld = false;
            if (_mailbox.TakeParkMark())
            {
                EndWait(ending: null);
            }
        }

        if (_hasItem)
        {
            return true;
        }

        if (_mailbox.TryTake(out var message))
        {
            _item = message;
            _hasItem = true;
            return true;
        }

        if (!_ended && _mailbox.AtEnd)
        {
            _ended = true;
            CompleteCompletion();
        }

        return false;
    }

    /// <summary>A wait's result past the end: false, or the completion's error as a channel gives it.</summary>
    private ValueTask<bool> Ended() =>
        _mailbox.CompletionError switch
        {
            null => new ValueTask<bool>(false),
            OperationCanceledException canceled => ValueTask.FromCanceled<bool>(canceled.CancellationToken.IsCancellationRequested ? canceled.CancellationToken : new CancellationToken(true)),
            var error => ValueTask.FromException<bool>(new ChannelClosedException(error)),
        };

    private void CompleteCompletion()
    {
        Debug.Assert(Monitor.IsEntered(_gate), "The reader's Completion is read and completed without the reader's lock.");
        switch (_mailbox.CompletionError)
        {
            case null:
                _completion?.TrySetResult();
                break;
            case OperationCanceledException canceled:
                _completion?.TrySetCanceled(canceled.CancellationToken);
                break;
            case var error:
                _completion?.TrySetException(error);
                break;
        }
    }

    /// <summary>The outstanding wait's token was canceled: takes back its mark, if a sender has not, and ends it canceled. Any thread.</summary>
    private void Cancel(CancellationToken token)
    {
        lock (_gate)
        {
            if (!_outstanding || !_markHeld || token != _waitToken)
            {
                return;
            }

            _markHeld = false;
            if (_mailbox.TakeParkMark())
            {
                EndWait(new OperationCanceledException(token));
            }
        }
    }

    /// <summary>Ends the wait whose mark this side took back, on the thread pool, so no consumer code runs under the lock.</summary>
    private void EndWait(Exception? ending)
    {
        Debug.Assert(Monitor.IsEntered(_gate), "The outstanding wait's ending is written without the reader's lock.");
        _ending = ending;
        ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
    }
}
