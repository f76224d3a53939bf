using System;
using System.Threading;

namespace ThreadIterators;

/// <summary>Gives any wait a timeout.</summary>
public static class TimeoutExtensions
{
    /// <summary>
    /// Makes a wait on <paramref name="event"/> that gives up once <paramref name="timeout"/> has passed:
    /// see <see cref="TimedEvent{TEvent}"/>.
    /// </summary>
    /// <remarks>
    /// Every event that a <see cref="Choice"/> accepts as a branch can have a timeout: a mailbox's or a shared
    /// mailbox's receive, a put event made by <c>CreatePutEvent</c>, a join (<see cref="GreenThread.Exited"/>,
    /// <see cref="GreenThread.Ended"/>), a task event, a credit acquire, and a pull source's and puller's events.
    /// </remarks>
    /// <typeparam name="TEvent">The kind of event, kept so its result is read through <see cref="TimedEvent{TEvent}.Inner"/>.</typeparam>
    /// <param name="event">The event to wait on.</param>
    /// <param name="timeout">
    /// How long each wait lasts at most, from the moment the thread parks: from zero (a poll) to
    /// <see cref="Event.MaxSleep"/>, or <see cref="Timeout.InfiniteTimeSpan"/> for no timeout.
    /// </param>
    /// <returns>A new event to yield, as often as needed, in place of <paramref name="event"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="event"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeout"/> is negative (other than infinite) or longer than <see cref="Event.MaxSleep"/>.</exception>
    /// <exception cref="ArgumentException"><paramref name="event"/> cannot be waited on with a timeout; the message names it and why.</exception>
    public static TimedEvent<TEvent> WithTimeout<TEvent>(this TEvent @event, TimeSpan timeout)
        where TEvent : Event
    {
        ArgumentNullException.ThrowIfNull(@event);
        if ((timeout < TimeSpan.Zero && timeout != Timeout.InfiniteTimeSpan) || timeout > Event.MaxSleep)
        {
            throw new ArgumentOutOfRangeException(nameof(timeout), timeout, $"The timeout of {@event} must last from zero to {Event.MaxSleepText}, or be Timeout.InfiniteTimeSpan.");
        }

        if (IChoosable.WhyNot(@event, timeoutAlone: true) is { } reason)
        {
            throw new ArgumentException($"{@event} cannot have a timeout: {reason}.", nameof(@event));
        }

        if (@event is IChoosable { TimesOutAlone: true })
        {
            // A put whose message only its yield sends is handed to the timed wait, which the thread yields instead:
            // its mark as unyielded (GreenThread.Stopping.cs) is taken back here, or the timed wait's yield would meet it.
            GreenThread.Current?.Yielded(@event);
        }

        return new TimedEvent<TEvent>(@event, timeout);
    }
}
