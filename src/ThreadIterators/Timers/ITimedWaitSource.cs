using System;

namespace ThreadIterators;

/// <summary>
/// An event that waits with a timeout more cheaply than a choice of it and a sleep (a mailbox's receive): it makes the
/// <see cref="TimedWait"/> a <see cref="TimedEvent{TEvent}"/> of it runs instead. Every other event's timed event is
/// that choice.
/// </summary>
/// <remarks>Asked once, when the timed event is made, on the thread that makes it.</remarks>
internal interface ITimedWaitSource
{
    /// <summary>
    /// Makes the work of <paramref name="event"/>, a <see cref="TimedEvent{TEvent}"/> of this event with a timeout of
    /// <paramref name="timeout"/>; null if this one cannot, and the timed event then runs a choice.
    /// </summary>
    TimedWait? TimedWaitOf(Event @event, TimeSpan timeout);
}
