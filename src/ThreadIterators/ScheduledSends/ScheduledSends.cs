using System;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Messages sent later: once after a delay (<see cref="SendAfter{T}"/>) or every period (<see cref="SendEvery{T}"/>), on a
/// scheduler's clock and timer queue, with a handle whose cancel is exact. Extension methods of
/// <see cref="Scheduler"/>: the scheduler lends its timer queue and a token its disposal cancels, and knows nothing of
/// the sends. Any thread.
/// </summary>
public static class ScheduledSends
{
    /// <summary>
    /// Sends <paramref name="message"/> to <paramref name="target"/> once <paramref name="delay"/> has passed on the
    /// scheduler's clock (<see cref="SchedulerOptions.TimeProvider"/>), unless the returned handle is cancelled first.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Any thread, green or not; nothing blocks. The message is sent from the scheduler's timer thread (with a fake
    /// clock, the thread that advances it), after the deadline, never before. Cancelling is exact: if
    /// <see cref="IScheduledSend.Cancel"/> returns true the message never arrives.
    /// </para>
    /// <para>
    /// A bounded target that is full at the deadline gets the message as soon as it has room, as
    /// <see cref="IMessageTarget{T}.SendAsync"/> would send it: the timer thread never waits, and the message is not
    /// dropped. Meanwhile the send can no longer be cancelled, and another timer's message to the same target may go in
    /// first. If the scheduler is disposed before there is room, the message is not sent and
    /// <see cref="IScheduledSend.Exception"/> says so.
    /// </para>
    /// <example>
    /// <code>
    /// // In a green thread that waits for a reply, or gives up after five seconds:
    /// var timeout = GreenThread.Current!.Scheduler.SendAfter(inbox, Reply.TimedOut, TimeSpan.FromSeconds(5));
    /// var reply = inbox.Recv();
    /// yield return reply;
    /// timeout.Cancel();   // false if the timeout is in the mailbox too; it is then the next message
    /// </code>
    /// </example>
    /// </remarks>
    /// <typeparam name="T">The message type.</typeparam>
    /// <param name="scheduler">The scheduler whose clock and timer queue time the send.</param>
    /// <param name="target">Where the message goes: a <see cref="Mailbox{T}"/>, a <see cref="SharedMailbox{T}"/>, a <see cref="Router{T}"/>.</param>
    /// <param name="message">The message.</param>
    /// <param name="delay">How long from now; zero sends as soon as the timer thread gets to it.</param>
    /// <returns>The handle that cancels the send and tells whether it happened.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="scheduler"/> or <paramref name="target"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">
    /// <paramref name="delay"/> is negative (<see cref="Timeout.InfiniteTimeSpan"/> included), or so long that the
    /// deadline is past the last timestamp of the scheduler's clock (centuries, with the system clock).
    /// </exception>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public static IScheduledSend SendAfter<T>(this Scheduler scheduler, IMessageTarget<T> target, T message, TimeSpan delay)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        ArgumentNullException.ThrowIfNull(target);
        var timers = scheduler.Timers;
        var now = timers.Now;
        var deadline = now + UnitsWithinClock(timers, now, delay, nameof(delay), "sends once");
        ObjectDisposedException.ThrowIf(scheduler.IsStopping, scheduler);
        var send = new DelayedSend<T>(scheduler, target, message);

        // After a disposal that began since the check, this does nothing, and the send stays pending for good.
        timers.Schedule(send, deadline);
        return send;
    }

    /// <summary>
    /// Sends <paramref name="message"/> to <paramref name="target"/> after <paramref name="initialDelay"/>, then once
    /// every <paramref name="period"/> on the scheduler's clock, until the returned handle is cancelled or the
    /// scheduler disposed.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Any thread, green or not; nothing blocks. Each message is sent from the scheduler's timer thread (with a fake
    /// clock, the thread that advances it).
    /// </para>
    /// <para>
    /// <b>Fixed rate, no catch-up.</b> Tick k is due at <paramref name="initialDelay"/> plus k periods from now, so the
    /// ticks keep their rhythm however late one is sent. Ticks the clock has already passed when one is sent (the
    /// timer thread was late, or a fake clock moved several periods at once) are skipped, not sent in a burst: a
    /// jump of ten periods sends one message, and the next is due at the next tick of the schedule.
    /// </para>
    /// <para>
    /// <b>A full bounded target.</b> A tick that finds a bounded target full sends nothing and is counted in
    /// <see cref="IScheduledSend.DroppedCount"/>; the next tick tries again. It does not wait for room: ticks queued
    /// up behind a slow receiver would arrive in a burst.
    /// </para>
    /// <para>
    /// Once <see cref="IScheduledSend.Cancel"/> returns, no further message is sent. If the target throws, the
    /// periodic send stops and <see cref="IScheduledSend.Exception"/> keeps the exception.
    /// </para>
    /// <example>
    /// <code>
    /// var ticks = scheduler.SendEvery(inbox, Message.Tick, TimeSpan.Zero, TimeSpan.FromSeconds(1));
    /// // ... later, from any thread:
    /// ticks.Cancel();   // no Tick is sent after this returns
    /// </code>
    /// </example>
    /// </remarks>
    /// <typeparam name="T">The message type.</typeparam>
    /// <param name="scheduler">The scheduler whose clock and timer queue time the send.</param>
    /// <param name="target">Where the messages go: a <see cref="Mailbox{T}"/>, a <see cref="SharedMailbox{T}"/>, a <see cref="Router{T}"/>.</param>
    /// <param name="message">The message sent at every tick.</param>
    /// <param name="initialDelay">How long from now the first tick is; zero sends the first at once.</param>
    /// <param name="period">The time between ticks; more than zero.</param>
    /// <returns>The handle that stops the sends and counts them.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="scheduler"/> or <paramref name="target"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">
    /// <paramref name="initialDelay"/> is negative, <paramref name="period"/> is zero or negative, or either is so long
    /// that a deadline is past the last timestamp of the scheduler's clock (centuries, with the system clock).
    /// </exception>
    /// <exception cref="ObjectDisposedException">The scheduler has been disposed.</exception>
    public static IScheduledSend SendEvery<T>(this Scheduler scheduler, IMessageTarget<T> target, T message, TimeSpan initialDelay, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        ArgumentNullException.ThrowIfNull(target);
        if (period <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(period), period, $"period is {period}; a periodic send needs a period of more than zero.");
        }

        var timers = scheduler.Timers;
        var now = timers.Now;
        var deadline = now + UnitsWithinClock(timers, now, initialDelay, nameof(initialDelay), "sends first");
        var periodUnits = UnitsWithinClock(timers, now, period, nameof(period), "repeats");
        ObjectDisposedException.ThrowIf(scheduler.IsStopping, scheduler);

        // At least one unit, as a positive period rounds up to: a tick always moves the deadline on.
        var send = new PeriodicSend<T>(scheduler, target, message, deadline, periodUnits);
        timers.Schedule(send, deadline);
        return send;
    }

    /// <summary>
    /// Writes an exception a timer's target threw to standard error: a send that failed must not fail silently, and
    /// the firing thread must not throw. The handle keeps the exception too (<see cref="IScheduledSend.Exception"/>).
    /// </summary>
    internal static void ReportFailedSend(IScheduledSend send, Exception exception) =>
        Console.Error.WriteLine($"ThreadIterators: {send} failed, its target threw: {exception}");

    /// <summary>
    /// Gets <paramref name="span"/> in <paramref name="timers"/>' timestamp units, rounded up, refusing a negative span
    /// and one that reaches past the clock's last timestamp from <paramref name="now"/>, rather than let a deadline
    /// saturate into a send that never comes.
    /// </summary>
    private static long UnitsWithinClock(TimerQueue timers, long now, TimeSpan span, string name, string what)
    {
        if (span < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(
                name,
                span,
                $"{name} is {span}; a timer {what} after zero or more time (Timeout.InfiniteTimeSpan is not a delay: a send that never comes needs no timer).");
        }

        var units = timers.UnitsOf(span.Ticks);
        if (units >= long.MaxValue - now)
        {
            var days = (long.MaxValue - now) / (double)timers.Frequency / 86_400;
            throw new ArgumentOutOfRangeException(
                name,
                span,
                $"{name} is {span}, past the last timestamp of the scheduler's clock, which ends about {days:N0} days from now.");
        }

        return units;
    }
}
