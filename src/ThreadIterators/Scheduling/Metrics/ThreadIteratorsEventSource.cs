using System;
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

namespace ThreadIterators;

/// <summary>
/// The runtime's events for <c>dotnet-trace</c>, PerfView or an in-process <see cref="EventListener"/>, under the
/// provider name <c>ThreadIterators</c>: a scheduler's start and stop, unobserved faults, dead letters and long turns
/// (cold paths, reported anyway), and each thread's spawn and end (verbose, under <see cref="Keywords.Threads"/>).
/// </summary>
/// <remarks>
/// The event ids never change meaning; a new event takes the next id. Every call site first asks
/// <see cref="EventSource.IsEnabled(EventLevel, EventKeywords)"/>, so a process with no session or listener pays one
/// field read at a spawn and at an end, and nothing else. The payloads use only the overloads of
/// <c>WriteEvent</c> that need no reflection, so the events stay trim- and AOT-safe (a Native AOT app enables
/// EventSource with <c>EventSourceSupport</c>).
/// </remarks>
[EventSource(Name = "ThreadIterators")]
internal sealed class ThreadIteratorsEventSource : EventSource
{
    /// <summary>The one instance.</summary>
    internal static readonly ThreadIteratorsEventSource Log = new();

    private ThreadIteratorsEventSource()
    {
    }

    /// <summary>The keywords a session turns the events on by.</summary>
    public static class Keywords
    {
        /// <summary>A scheduler's start and stop.</summary>
        public const EventKeywords Scheduler = (EventKeywords)0x1;

        /// <summary>Each green thread's spawn and end: verbose, one event each.</summary>
        public const EventKeywords Threads = (EventKeywords)0x2;

        /// <summary>Unobserved faults and long turns.</summary>
        public const EventKeywords Faults = (EventKeywords)0x4;

        /// <summary>Dead letters.</summary>
        public const EventKeywords DeadLetters = (EventKeywords)0x8;

        /// <summary>Each park, wake-up and steal of a green thread: verbose, on the hop's path, so asked for alone.</summary>
        public const EventKeywords Scheduling = (EventKeywords)0x10;

        /// <summary>Deadlocks found: a cycle in a wait-for graph, a cycle of joins.</summary>
        public const EventKeywords Deadlocks = (EventKeywords)0x20;
    }

    /// <summary>
    /// Gets whether a session asks for the per-thread events: what a spawn and an end ask, so that with no session they
    /// pay one field read (<see cref="EventSource.IsEnabled()"/>, inlined) and no call.
    /// </summary>
    internal bool ThreadsEnabled
    {
        [NonEvent]
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => IsEnabled() && IsEnabled(EventLevel.Verbose, Keywords.Threads);
    }

    /// <summary>
    /// Whether the process allows the park, wake-up and steal events: the runtime switch
    /// <c>ThreadIterators.SchedulingEvents</c>, read once. Off by default, and then a constant false for the JIT, so
    /// the hop pays nothing for them: even one field read at a park and one at a wake-up made ThreadRing 4 to 7% slower
    /// (measured against a build without them). On, a session's keyword decides, as for every other event.
    /// </summary>
    internal static readonly bool SchedulingEventsAllowed = AppContext.TryGetSwitch("ThreadIterators.SchedulingEvents", out var allowed) && allowed;

    /// <summary>Gets whether the process allows the park, wake-up and steal events, and a session asks for them.</summary>
    internal bool SchedulingEnabled
    {
        [NonEvent]
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => SchedulingEventsAllowed && IsEnabled() && IsEnabled(EventLevel.Verbose, Keywords.Scheduling);
    }

    /// <summary>A scheduler started: its description and its number.</summary>
    [Event(1, Level = EventLevel.Informational, Keywords = Keywords.Scheduler, Message = "{0} started")]
    public void SchedulerStart(string scheduler, long number) => WriteEvent(1, scheduler, number);

    /// <summary>A scheduler's disposal finished: every thread has ended.</summary>
    [Event(2, Level = EventLevel.Informational, Keywords = Keywords.Scheduler, Message = "Scheduler #{0} stopped")]
    public void SchedulerStop(long number) => WriteEvent(2, number);

    /// <summary>A green thread was spawned.</summary>
    [Event(3, Level = EventLevel.Verbose, Keywords = Keywords.Threads, Message = "Scheduler #{0} spawned thread #{1}")]
    public void ThreadSpawn(long scheduler, long thread) => WriteEvent(3, scheduler, thread);

    /// <summary>A green thread ended: <paramref name="outcome"/> is a <see cref="ThreadOutcome"/> (1 completed, 2 faulted, 3 canceled).</summary>
    [Event(4, Level = EventLevel.Verbose, Keywords = Keywords.Threads, Message = "Scheduler #{0}: thread #{1} ended, outcome {2}")]
    public void ThreadEnd(long scheduler, long thread, long outcome) => WriteEvent(4, scheduler, thread, outcome);

    /// <summary>A fault nobody observed was reported.</summary>
    [Event(5, Level = EventLevel.Error, Keywords = Keywords.Faults, Message = "{0}: {1} ended with an exception nobody observed: {2}")]
    public void UnobservedFault(string scheduler, string thread, string exception) => WriteEvent(5, scheduler, thread, exception);

    /// <summary>A message became a dead letter.</summary>
    [Event(6, Level = EventLevel.Warning, Keywords = Keywords.DeadLetters, Message = "Dead letter: {0} to {1}, {2}")]
    public void DeadLetter(string messageType, string mailbox, string reason) => WriteEvent(6, messageType, mailbox, reason);

    /// <summary>A turn has held its worker past the long-turn threshold, and still does.</summary>
    [Event(7, Level = EventLevel.Warning, Keywords = Keywords.Faults, Message = "Scheduler #{0}: thread #{1} has held its worker for {2} µs in one turn")]
    public void LongTurn(long scheduler, long thread, long microseconds) => WriteEvent(7, scheduler, thread, microseconds);

    /// <summary>A green thread parked on <paramref name="worker"/> (its index), waiting on the event it yielded.</summary>
    [Event(8, Level = EventLevel.Verbose, Keywords = Keywords.Scheduling, Message = "Scheduler #{0}: thread #{1} parked on worker {2}")]
    public void ThreadPark(long scheduler, long thread, long worker) => WriteEvent(8, scheduler, thread, worker);

    /// <summary>A parked green thread was made ready by <paramref name="waker"/> (a worker's index), or by an OS thread that is no worker of its scheduler (-1).</summary>
    [Event(9, Level = EventLevel.Verbose, Keywords = Keywords.Scheduling, Message = "Scheduler #{0}: thread #{1} woken by worker {2}")]
    public void ThreadWake(long scheduler, long thread, long waker) => WriteEvent(9, scheduler, thread, waker);

    /// <summary>
    /// Worker <paramref name="thief"/> took green thread <paramref name="thread"/> from another worker: the first of a
    /// stolen half of a local queue, a thread of its spawn deque or inbound queue, or, the watchdog's, a run-next slot.
    /// </summary>
    [Event(10, Level = EventLevel.Verbose, Keywords = Keywords.Scheduling, Message = "Scheduler #{0}: thread #{1} stolen by worker {2}")]
    public void ThreadSteal(long scheduler, long thread, long thief) => WriteEvent(10, scheduler, thread, thief);

    /// <summary>A deadlock was found: its scheduler, and what the threads in it wait for (a wait-for graph's text, or a cycle of joins).</summary>
    [Event(11, Level = EventLevel.Warning, Keywords = Keywords.Deadlocks, Message = "{0}: deadlock: {1}")]
    public void Deadlock(string scheduler, string waits) => WriteEvent(11, scheduler, waits);
}
