using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The timer of one <see cref="ScheduledSends.SendEvery{T}(Scheduler, IMessageTarget{T}, T, TimeSpan, TimeSpan)"/>: its queue entry
/// and its public handle in one object, scheduled again after each tick.
/// </summary>
/// <remarks>
/// <para>
/// Any thread cancels or reads it; <see cref="Fire"/> runs on the timer queue's firing thread, one tick at a time
/// (the queue has one firer), and is the only writer of <see cref="_deadline"/> and the counts.
/// </para>
/// <para>
/// <b>Ticks.</b> Fixed rate: tick k is due at the first deadline plus k periods, whenever the one before it was
/// sent, so ticks do not drift by the firing thread's lateness. Ticks that the clock has passed by the time a tick
/// is sent (a late firing thread, a fake clock moved by several periods at once) are merged into that one: the next
/// deadline is the first of the schedule still ahead, so nothing fires in a burst to catch up.
/// </para>
/// <para>
/// <b>A tick against a cancel</b>, on <see cref="_state"/>:
/// 1. <see cref="Fire"/> takes the tick with a compare-and-swap from <see cref="Running"/> to <see cref="Sending"/>;
///    losing it (a cancel won) it sends nothing.
/// 2. It sends without waiting (<see cref="IMessageTarget{T}.TrySend"/>), schedules the next tick, and swaps back to
///    <see cref="Running"/>.
/// 3. <see cref="Cancel"/> swaps <see cref="Running"/> to <see cref="Canceled"/> and takes the scheduled entry out;
///    or, finding a tick in step 2, swaps <see cref="Sending"/> to <see cref="CancelRequested"/> and waits.
/// 4. A tick that finds <see cref="CancelRequested"/> at the end of step 2 takes its next tick out again and sets
///    <see cref="Canceled"/>, which ends the cancel's wait.
/// So every cancel returns only once no tick is under way or to come. The next tick is scheduled before the swap back
/// so that a cancel that sees <see cref="Running"/> always finds the entry pending; it cannot fire meanwhile, since the
/// queue's one firer is the thread in step 2.
/// </para>
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
internal sealed class PeriodicSend<T> : TimerEntry, IScheduledSend
{
    /// <summary>Scheduled for its next tick (or its queue disposed).</summary>
    private const int Running = 0;

    /// <summary>A tick is being sent, on the firing thread.</summary>
    private const int Sending = 1;

    /// <summary>A cancel came while a tick was being sent; the tick ends the timer and sets <see cref="Canceled"/>.</summary>
    private const int CancelRequested = 2;

    /// <summary>Stopped by a cancel; no tick is under way or to come.</summary>
    private const int Canceled = 3;

    /// <summary>Stopped because the target threw.</summary>
    private const int Failed = 4;

    /// <summary>
    /// The send the calling thread is making for a tick, if any: a cancel from inside the target's own send (a target
    /// of the user's) must not wait for the tick it is part of.
    /// </summary>
    [ThreadStatic]
    private static PeriodicSend<T>? t_sending;

    /// <summary>The scheduler whose queue holds the entry.</summary>
    private readonly Scheduler _scheduler;

    /// <summary>Where the messages go.</summary>
    private readonly IMessageTarget<T> _target;

    /// <summary>The message sent at every tick.</summary>
    private readonly T _message;

    /// <summary>The period in the clock's timestamp units; at least 1.</summary>
    private readonly long _period;

    /// <summary>The deadline of the tick scheduled last, in the clock's timestamp units. Firing thread only, after the start.</summary>
    private long _deadline;

    /// <summary>Messages sent. Written by the firing thread only.</summary>
    private long _sent;

    /// <summary>Ticks that found the bounded target full. Written by the firing thread only.</summary>
    private long _dropped;

    /// <summary>One of <see cref="Running"/>, <see cref="Sending"/>, <see cref="CancelRequested"/>, <see cref="Canceled"/>, <see cref="Failed"/>.</summary>
    private int _state;

    /// <summary>What the target threw; written before <see cref="_state"/> becomes <see cref="Failed"/>.</summary>
    private Exception? _exception;

    internal PeriodicSend(Scheduler scheduler, IMessageTarget<T> target, T message, long firstDeadline, long period)
    {
        _scheduler = scheduler;
        _target = target;
        _message = message;
        _deadline = firstDeadline;
        _period = period;
    }

    /// <inheritdoc/>
    public bool IsCanceled => Volatile.Read(ref _state) == Canceled;

    /// <inheritdoc/>
    public bool IsSent => SentCount > 0;

    /// <inheritdoc/>
    public long SentCount => Volatile.Read(ref _sent);

    /// <inheritdoc/>
    public long DroppedCount => Volatile.Read(ref _dropped);

    /// <inheritdoc/>
    public Exception? Exception => Volatile.Read(ref _state) == Failed ? _exception : null;

    /// <inheritdoc/>
    public bool Cancel()
    {
        while (true)
        {
            switch (Volatile.Read(ref _state))
            {
                case Running:
                    if (Interlocked.CompareExchange(ref _state, Canceled, Running) == Running)
                    {
                        // The next tick is pending (step 3 of the remarks); a tick that already took it loses its swap.
                        _scheduler.Timers.Cancel(this);
                        return true;
                    }

                    break;
                case Sending:
                    if (Interlocked.CompareExchange(ref _state, CancelRequested, Sending) == Sending)
                    {
                        WaitForTick();
                        return true;
                    }

                    break;
                case CancelRequested:
                    // Another cancel won; this one too returns only once the tick is over.
                    WaitForTick();
                    return false;
                default:
                    return false;
            }
        }
    }

    /// <summary>A tick is due: sends unless cancelled, then schedules the next tick.</summary>
    internal override void Fire()
    {
        if (Interlocked.CompareExchange(ref _state, Sending, Running) != Running)
        {
            return;
        }

        // Saved and restored: a target of the user's own could, in its send, move another scheduler's fake clock.
        var outer = t_sending;
        t_sending = this;
        try
        {
            if (_target.TrySend(_message))
            {
                Volatile.Write(ref _sent, _sent + 1);
            }
            else
            {
                // Never waits: queuing ticks behind a full target is the burst the fixed rate avoids.
                Volatile.Write(ref _dropped, _dropped + 1);
            }
        }
        catch (Exception exception)
        {
            // A target of the user's own threw: the timer stops. The firing thread must not throw.
            _exception = exception;
            if (Interlocked.CompareExchange(ref _state, Failed, Sending) != Sending)
            {
                Volatile.Write(ref _state, Canceled);
            }

            ScheduledSends.ReportFailedSend(this, exception);
            return;
        }
        finally
        {
            t_sending = outer;
        }

        var timers = _scheduler.Timers;
        var now = timers.Now;
        _deadline = NextDeadline(_deadline, now);
        Debug.Assert(_deadline > now || _deadline == long.MaxValue, $"{this} scheduled its next tick at {_deadline}, not after the clock's {now}: it would fire again at once.");
        timers.Schedule(this, _deadline);
        if (Interlocked.CompareExchange(ref _state, Running, Sending) != Sending)
        {
            // A cancel came during the tick and waits for it (step 4 of the remarks).
            timers.Cancel(this);
            Volatile.Write(ref _state, Canceled);
        }
    }

    /// <inheritdoc/>
    public override string ToString()
    {
        var state = Volatile.Read(ref _state) switch
        {
            Running => "running",
            Sending => "sending a tick",
            CancelRequested => "being canceled",
            Canceled => "canceled",
            _ => "failed",
        };
        return $"a periodic send of {TypeNames.Of<T>()} to {_target} ({state}, {SentCount} sent, {DroppedCount} dropped)";
    }

    /// <summary>
    /// The deadline after <paramref name="deadline"/> on the fixed-rate schedule that is still ahead of
    /// <paramref name="now"/>: one period on, or more when the clock has passed ticks, which are skipped. Saturates at
    /// <see cref="long.MaxValue"/>, centuries out.
    /// </summary>
    private long NextDeadline(long deadline, long now)
    {
        var periods = now < deadline ? 1 : ((now - deadline) / _period) + 1;
        var next = deadline + ((Int128)periods * _period);
        return next > long.MaxValue ? long.MaxValue : (long)next;
    }

    /// <summary>Spins until the tick under way has ended the timer; at once if called from inside that tick's send.</summary>
    private void WaitForTick()
    {
        if (t_sending == this)
        {
            return;
        }

        // As long as one non-blocking send on the firing thread.
        var spinner = default(SpinWait);
        while (Volatile.Read(ref _state) < Canceled)
        {
            spinner.SpinOnce();
        }
    }
}
