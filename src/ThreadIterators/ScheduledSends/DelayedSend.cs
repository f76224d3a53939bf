using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// The timer of one <see cref="ScheduledSends.SendAfter{T}(Scheduler, IMessageTarget{T}, T, TimeSpan)"/>: its queue entry and its
/// public handle in one object.
/// </summary>
/// <remarks>
/// <para>
/// Any thread cancels or reads it; <see cref="Fire"/> runs on the timer queue's firing thread. <see cref="_state"/>
/// decides between the two: <see cref="Cancel"/> and <see cref="Fire"/> each try one compare-and-swap from
/// <see cref="Pending"/>, and only the winner goes on, so a cancel that returns true is sure the message was not
/// taken, however close to the deadline it came. Taking the entry out of the queue is only tidying up.
/// </para>
/// <para>
/// A target that is full when the timer fires gets the message through its <see cref="IMessageTarget{T}.SendAsync"/>,
/// started on the thread pool: the firing thread never blocks, and the message is not dropped.
/// </para>
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
internal sealed class DelayedSend<T> : TimerEntry, IScheduledSend
{
    /// <summary>Scheduled (or its queue disposed before it fired); the message not taken.</summary>
    private const int Pending = 0;

    /// <summary>Fired: the message is being sent, or waits for room in a full bounded target.</summary>
    private const int Sending = 1;

    /// <summary>The message is in the target.</summary>
    private const int Sent = 2;

    /// <summary>A cancel won; the message will never be sent.</summary>
    private const int Canceled = 3;

    /// <summary>The send ended without the message in: the target threw, or disposal ended the wait for room.</summary>
    private const int Failed = 4;

    /// <summary>The scheduler whose queue holds the entry and whose disposal ends a wait for room.</summary>
    private readonly Scheduler _scheduler;

    /// <summary>Where the message goes.</summary>
    private readonly IMessageTarget<T> _target;

    /// <summary>The message; cleared once sent or cancelled, so a handle kept for long does not keep it alive.</summary>
    private T _message;

    /// <summary>One of <see cref="Pending"/>, <see cref="Sending"/>, <see cref="Sent"/>, <see cref="Canceled"/>, <see cref="Failed"/>.</summary>
    private int _state;

    /// <summary>Why the send failed; written before <see cref="_state"/> becomes <see cref="Failed"/>.</summary>
    private Exception? _exception;

    internal DelayedSend(Scheduler scheduler, IMessageTarget<T> target, T message)
    {
        _scheduler = scheduler;
        _target = target;
        _message = message;
    }

    /// <inheritdoc/>
    public bool IsCanceled => Volatile.Read(ref _state) == Canceled;

    /// <inheritdoc/>
    public bool IsSent => Volatile.Read(ref _state) == Sent;

    /// <inheritdoc/>
    public long SentCount => IsSent ? 1 : 0;

    /// <inheritdoc/>
    public long DroppedCount => 0;

    /// <inheritdoc/>
    public Exception? Exception => Volatile.Read(ref _state) == Failed ? _exception : null;

    /// <inheritdoc/>
    public bool Cancel()
    {
        if (Interlocked.CompareExchange(ref _state, Canceled, Pending) != Pending)
        {
            return false;
        }

        // Won: the firer, if it has the entry already, loses its compare-and-swap and sends nothing. Taking the entry
        // out now gives back its heap slot rather than at the deadline.
        _scheduler.Timers.Cancel(this);
        ClearMessage();
        return true;
    }

    /// <summary>The deadline passed: sends the message unless a cancel won first.</summary>
    internal override void Fire()
    {
        if (Interlocked.CompareExchange(ref _state, Sending, Pending) != Pending)
        {
            return;
        }

        bool sent;
        try
        {
            sent = _target.TrySend(_message);
        }
        catch (Exception exception)
        {
            // A target of the user's own threw. The firing thread must not throw (it would lose the rest of its batch).
            Fail(exception, report: true);
            return;
        }

        if (sent)
        {
            Delivered();
            return;
        }

        // Full: waiting for room must not hold the firing thread, which may also be a worker (a fake clock advanced
        // by a green thread), where SendAsync is refused.
        ThreadPool.UnsafeQueueUserWorkItem(static send => _ = send.SendWhenRoomAsync(), this, preferLocal: false);
    }

    /// <inheritdoc/>
    public override string ToString()
    {
        var state = Volatile.Read(ref _state) switch
        {
            Pending => "pending",
            Sending => "sending",
            Sent => "sent",
            Canceled => "canceled",
            _ => "failed",
        };
        return $"a send of {TypeNames.Of<T>()} to {_target} after a delay ({state})";
    }

    /// <summary>On the thread pool, after the timer found a bounded target full: waits for room, until the scheduler's disposal; never throws.</summary>
    private async Task SendWhenRoomAsync()
    {
        var stopped = _scheduler.TimerSendsStopped;
        try
        {
            await _target.SendAsync(_message, stopped).ConfigureAwait(false);
            Delivered();
        }
        catch (OperationCanceledException) when (stopped.IsCancellationRequested)
        {
            Fail(new ObjectDisposedException(_scheduler.ToString(), $"The scheduler was disposed while {this} waited for room in {_target}; the message was not sent."), report: false);
        }
        catch (Exception exception)
        {
            Fail(exception, report: true);
        }
    }

    /// <summary>The message is in.</summary>
    private void Delivered()
    {
        ClearMessage();
        Volatile.Write(ref _state, Sent);
    }

    /// <summary>The message will not go in: keeps why, and reports a target's exception so it is not lost silently.</summary>
    private void Fail(Exception exception, bool report)
    {
        ClearMessage();
        _exception = exception;
        Volatile.Write(ref _state, Failed);
        if (report)
        {
            ScheduledSends.ReportFailedSend(this, exception);
        }
    }

    /// <summary>Lets go of the message; only by the party that won <see cref="_state"/>.</summary>
    private void ClearMessage()
    {
        if (RuntimeHelpers.IsReferenceOrContainsReferences<T>())
        {
            _message = default!;
        }
    }
}
