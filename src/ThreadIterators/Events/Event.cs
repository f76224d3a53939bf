using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Something a green thread waits for. A green thread body yields an <see cref="Event"/> wherever it would block;
/// the scheduler parks the thread and resumes it right after the <c>yield return</c> once the event has completed.
/// </summary>
/// <remarks>
/// <para>
/// Events come from the library: <see cref="Mailbox{T}.Recv"/>, <see cref="GreenThread.Exited"/>,
/// <see cref="Sleep(TimeSpan)"/> and <see cref="Yield"/>. User code cannot derive new kinds of event; that keeps
/// the park/wake protocol, which every event must follow exactly, inside the library.
/// </para>
/// <para>
/// An event may complete at once: a receive on a mailbox that already holds a message does not park at all, and the
/// thread goes on in the same turn.
/// </para>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Forward(Mailbox&lt;int&gt; inbox, Mailbox&lt;int&gt; outbox)
/// {
///     while (true)
///     {
///         var message = inbox.Recv();
///         yield return message;          // parks until a message is there
///         outbox.Send(message.Value);
///     }
/// }
/// </code>
/// </example>
/// </remarks>
[SuppressMessage("Naming", "CA1716:Identifiers should not match keywords", Justification = "Event is the name the programming model is built on: threads yield events.")]
public abstract class Event
{
    private protected Event()
    {
    }

    /// <summary>
    /// Gets an event that gives the rest of the current turn to other runnable green threads of the same worker
    /// and resumes the yielding thread after them.
    /// </summary>
    public static Event Yield { get; } = new YieldEvent();

    /// <summary>Gets the longest sleep <see cref="Sleep(TimeSpan)"/> accepts: <see cref="int.MaxValue"/> milliseconds, about 24.8 days.</summary>
    public static TimeSpan MaxSleep { get; } = TimeSpan.FromMilliseconds(int.MaxValue);

    /// <summary>Creates an event that resumes the yielding green thread once <paramref name="duration"/> has passed.</summary>
    /// <param name="duration">How long to sleep, counted from the moment the event is yielded. Zero behaves like <see cref="Yield"/>.</param>
    /// <returns>A new event; yield it from a green thread.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="duration"/> is negative or longer than <see cref="MaxSleep"/>.</exception>
    public static Event Sleep(TimeSpan duration)
    {
        if (duration < TimeSpan.Zero || duration > MaxSleep)
        {
            throw new ArgumentOutOfRangeException(nameof(duration), duration, $"A sleep must last from zero to {MaxSleep.TotalDays:F1} days; to wait longer, wait on a mailbox or a thread instead.");
        }

        return duration == TimeSpan.Zero ? Yield : new SleepEvent(duration);
    }

    /// <summary>
    /// Called on <paramref name="worker"/>, which runs <paramref name="thread"/>, right after the thread yielded this event.
    /// </summary>
    /// <remarks>
    /// On <see cref="EventOutcome.Parked"/> the event has taken responsibility for waking the thread exactly once
    /// (through <see cref="Scheduler.Ready(GreenThread)"/>); from that moment another worker may already be running it, so the
    /// caller must not touch the thread again.
    /// </remarks>
    internal abstract EventOutcome Park(GreenThread thread, Worker worker);

    /// <summary>
    /// Called on <paramref name="worker"/>, which resumes a thread this event parked, before the thread's body continues.
    /// </summary>
    internal virtual EventOutcome Resume(GreenThread thread, Worker worker) => EventOutcome.Continue;

    /// <summary>
    /// Called on the disposing thread for a thread that was parked on this event when its scheduler was disposed,
    /// so the event can forget it.
    /// </summary>
    internal virtual void Abandon(GreenThread thread)
    {
    }
}
