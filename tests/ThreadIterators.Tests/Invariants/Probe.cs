using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>
/// Reads runtime state that tests wait on and no public member shows, from the test side: production types carry no
/// member only tests use. Private fields are read through <see cref="UnsafeAccessorAttribute"/>, so a renamed field
/// fails the test that reads it with a <see cref="System.MissingFieldException"/>, never silently.
/// </summary>
internal static class Probe
{
    /// <summary>Gets the number of senders waiting for room in a bounded mailbox (0 for an unbounded one).</summary>
    internal static int WaitingSenders<T>(Mailbox<T> mailbox) => ((IBoundedTarget<T>)mailbox).Room?.Count ?? 0;

    /// <summary>Gets the number of senders waiting for room in a bounded mailbox or shared mailbox (0 for anything else).</summary>
    internal static int WaitingSenders<T>(IMessageTarget<T> target) => (target as IBoundedTarget<T>)?.Room?.Count ?? 0;

    /// <summary>Gets the segment a mailbox's senders append to, if any.</summary>
    internal static MailboxSegment<T>? TailSegment<T>(Mailbox<T> mailbox) => Volatile.Read(ref MailboxFields<T>.Tail(mailbox));

    /// <summary>Gets the number of green threads parked in a credit window's <see cref="CreditWindow.Acquire"/>.</summary>
    internal static int WaitingForCredit(CreditWindow window)
    {
        var waiting = CreditWindowFields.Waiting(window);
        lock (waiting)
        {
            return waiting.Count;
        }
    }

    /// <summary>Gets the sends counted on the calling OS thread, which is no worker: its own counters, which no other thread writes.</summary>
    internal static long SentFromThisThread() => Volatile.Read(ref OsThreadContextFields.Outside(OsThreadContext.Current)!.Sent);

    /// <summary>Gets a value indicating whether a green thread is parked on <paramref name="thread"/>'s <see cref="GreenThread.Exited"/>, or plain code waits for it.</summary>
    internal static bool HasJoiners(GreenThread thread) => Volatile.Read(ref GreenThreadFields.Exit(thread)) is ExitEvent exit && exit.HasWaiters;

    /// <summary>Gets a value indicating whether a green thread or a choice waits on <paramref name="taskEvent"/>'s task, owed its wake-up.</summary>
    internal static bool IsWaiting(TaskEvent taskEvent) => Volatile.Read(ref TaskWaitFields.Waiter(ref TaskEventCoreFields<ValueTaskSlot>.Wait(ref TaskEventFields.Core(taskEvent)))) is GreenThread or ChoiceTicket;

    /// <summary>Gets a value indicating whether a green thread or a choice waits on <paramref name="taskEvent"/>'s task, owed its wake-up.</summary>
    internal static bool IsWaiting<T>(TaskEvent<T> taskEvent) => Volatile.Read(ref TaskWaitFields.Waiter(ref TaskEventCoreFields<ValueTaskSlot<T>>.Wait(ref TaskEventFields<T>.Core(taskEvent)))) is GreenThread or ChoiceTicket;

    /// <summary>Gets a value indicating whether the continuation <paramref name="taskEvent"/> registered on its task has run: it leaves its marker, neither a waiter nor null.</summary>
    internal static bool HasFired<T>(TaskEvent<T> taskEvent) => Volatile.Read(ref TaskWaitFields.Waiter(ref TaskEventCoreFields<ValueTaskSlot<T>>.Wait(ref TaskEventFields<T>.Core(taskEvent)))) is not (null or GreenThread or ChoiceTicket);

    /// <summary>Gets a value indicating whether a green thread or a choice waits on the channel's <c>WaitToReadAsync</c> for <paramref name="read"/>.</summary>
    internal static bool IsWaiting<T>(ChannelReadEvent<T> read) => ChannelWaitFields.Task(ref ChannelReadEventFields<T>.Wait(read)) is { } task && IsWaiting(task);

    /// <summary>Gets a value indicating whether a green thread or a choice waits on the channel's <c>WaitToWriteAsync</c> for <paramref name="write"/>.</summary>
    internal static bool IsWaiting<T>(ChannelWriteEvent<T> write) => ChannelWaitFields.Task(ref ChannelWriteEventFields<T>.Wait(write)) is { } task && IsWaiting(task);

    /// <summary>Gets a value indicating whether <paramref name="taskEvent"/> ever parked a thread: its continuation is made by the first park.</summary>
    internal static bool HasParked(TaskEvent taskEvent) => TaskEventCoreFields<ValueTaskSlot>.OnCompleted(ref TaskEventFields.Core(taskEvent)) is not null;

    /// <summary>Gets a value indicating whether <paramref name="taskEvent"/> ever parked a thread: its continuation is made by the first park.</summary>
    internal static bool HasParked<T>(TaskEvent<T> taskEvent) => TaskEventCoreFields<ValueTaskSlot<T>>.OnCompleted(ref TaskEventFields<T>.Core(taskEvent)) is not null;

    /// <summary>Gets a value indicating whether the thread that yielded <paramref name="choice"/> has parked on it (its parked bit), with no branch chosen yet.</summary>
    internal static bool IsParked(Choice choice) => (Volatile.Read(ref ChoiceFields.State(choice)) & 0xFF) == 0x80;

    /// <summary>Gets a value indicating whether a green thread is parked on <paramref name="whenCanceled"/>, made by <see cref="Event.WhenCanceled"/>.</summary>
    internal static bool IsWaiting(Event whenCanceled) => Volatile.Read(ref CancellationEventFields.Waiter((CancellationEvent)whenCanceled)) is GreenThread;

    /// <summary>Gets the managed ids of the OS threads of a scheduler's workers.</summary>
    internal static HashSet<int> WorkerThreadIds(Scheduler scheduler)
    {
        var ids = new HashSet<int>();
        foreach (var worker in scheduler.Workers)
        {
            ids.Add(WorkerFields.Thread(worker).ManagedThreadId);
        }

        return ids;
    }

    /// <summary>Gets the number of green threads parked on <paramref name="thread"/>'s <see cref="GreenThread.Exited"/> or <see cref="GreenThread.Ended"/>.</summary>
    internal static int JoinerCount(GreenThread thread)
    {
        if (Volatile.Read(ref GreenThreadFields.Exit(thread)) is not ExitEvent exit)
        {
            return 0;
        }

        lock (exit)
        {
            return ExitEventFields.Joiners(exit) switch
            {
                null => 0,
                List<object> many => many.Count,
                _ => 1,
            };
        }
    }

    /// <summary>
    /// Gets the number of threads in a scheduler's queues: the inject and overflow queues and every worker's run-next slot, local
    /// queue and inbound queue. Exact only once the workers have stopped.
    /// </summary>
    internal static int QueuedThreads(Scheduler scheduler)
    {
        var count = SchedulerFields.Inject(scheduler).Count + SchedulerFields.Overflow(scheduler).Count;
        foreach (var worker in scheduler.Workers)
        {
            count += worker.Queue.Count + worker.Spawns.Count + WorkerFields.Inbound(worker).Count + (WorkerFields.RunNext(worker) is null ? 0 : 1);
        }

        return count;
    }

    /// <summary>Gets the number of deadlines pending in a timer queue.</summary>
    internal static int PendingTimers(TimerQueue timers)
    {
        lock (TimerQueueFields.Lock(timers))
        {
            return TimerQueueFields.Count(timers);
        }
    }

    /// <summary>Gets the number of deadlines pending in a scheduler's timer queue (sleeps, timeouts).</summary>
    internal static int PendingTimers(Scheduler scheduler) => PendingTimers(scheduler.Timers);

    /// <summary>
    /// Gets a value indicating whether a timer queue holds exactly <paramref name="pending"/> deadlines and is at rest:
    /// no arming of its provider's timer under way, no batch being fired (a firer on another thread, such as a
    /// thread-pool callback for a deadline already due, would fire what an advance passes after the advance returned),
    /// and the timer armed to call back by the earliest deadline. Then a fake clock's advance fires what it passes
    /// before it returns. (With the system clock, the count alone.)
    /// </summary>
    internal static bool TimersSettled(TimerQueue timers, int pending)
    {
        // The queue holds its arm lock across ITimer.Change, so taking it waits out an arming.
        lock (TimerQueueFields.ArmLock(timers))
        {
            lock (TimerQueueFields.Lock(timers))
            {
                var count = TimerQueueFields.Count(timers);
                if (TimerQueueFields.OwnThread(timers))
                {
                    return count == pending;
                }

                return count == pending
                    && TimerQueueFields.Firer(timers) is null
                    && (count == 0 || TimerQueueFields.ArmedFor(timers) <= TimerQueueFields.Heap(timers)[0].Deadline);
            }
        }
    }

    /// <summary>As <see cref="TimersSettled(TimerQueue, int)"/>, for a scheduler's timer queue.</summary>
    internal static bool TimersSettled(Scheduler scheduler, int pending) => TimersSettled(scheduler.Timers, pending);

    /// <summary>Gets the timer queue's own OS thread (system clock), if it was started.</summary>
    internal static Thread? TimerThread(TimerQueue timers)
    {
        lock (TimerQueueFields.Lock(timers))
        {
            return TimerQueueFields.Thread(timers);
        }
    }

    /// <summary>
    /// Makes <paramref name="scheduler"/>'s watchdog read the runtime's total GC pause from <paramref name="pauses"/>
    /// instead of <see cref="GC.GetTotalPauseDuration"/>, to stand in for a long collection.
    /// </summary>
    internal static void StandInForGcPauses(Scheduler scheduler, Func<TimeSpan> pauses) =>
        Volatile.Write(ref WatchdogFields.GcPauses(SchedulerFields.Watchdog(scheduler)), pauses);

    /// <summary>
    /// Gets the longest the scheduler's watchdog may take before it next looks at the workers: zero if its signal is
    /// set (a nudge it has not taken yet), <see cref="Timeout.InfiniteTimeSpan"/> while it sleeps, else the tick it
    /// waits out.
    /// </summary>
    internal static TimeSpan WatchdogNextLookWithin(Scheduler scheduler)
    {
        var watchdog = SchedulerFields.Watchdog(scheduler);

        // The signal first: the watchdog records that it is awake before it resets the signal.
        if (WatchdogFields.Signal(watchdog).IsSet)
        {
            return TimeSpan.Zero;
        }

        var waitMs = Volatile.Read(ref WatchdogFields.WaitMs(watchdog));
        return waitMs == Timeout.Infinite ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(waitMs);
    }

    private static class WatchdogFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_gcPauses")]
        internal static extern ref Func<TimeSpan> GcPauses(Watchdog watchdog);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_signal")]
        internal static extern ref ManualResetEventSlim Signal(Watchdog watchdog);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_waitMs")]
        internal static extern ref int WaitMs(Watchdog watchdog);
    }

    private static class TimerQueueFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_lock")]
        internal static extern ref object Lock(TimerQueue timers);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_armLock")]
        internal static extern ref object ArmLock(TimerQueue timers);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_count")]
        internal static extern ref int Count(TimerQueue timers);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_heap")]
        internal static extern ref TimerNode[] Heap(TimerQueue timers);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_armedFor")]
        internal static extern ref long ArmedFor(TimerQueue timers);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_ownThread")]
        internal static extern ref bool OwnThread(TimerQueue timers);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_thread")]
        internal static extern ref Thread? Thread(TimerQueue timers);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_firer")]
        internal static extern ref Thread? Firer(TimerQueue timers);
    }

    private static class MailboxFields<T>
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_tail")]
        internal static extern ref MailboxSegment<T>? Tail(Mailbox<T> mailbox);
    }

    private static class CreditWindowFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_waiting")]
        internal static extern ref Queue<GreenThread> Waiting(CreditWindow window);
    }

    private static class TaskEventFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_core")]
        internal static extern ref TaskEventCore<ValueTaskSlot> Core(TaskEvent taskEvent);
    }

    private static class TaskEventFields<T>
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_core")]
        internal static extern ref TaskEventCore<ValueTaskSlot<T>> Core(TaskEvent<T> taskEvent);
    }

    private static class TaskEventCoreFields<TSlot>
        where TSlot : struct, ITaskSlot
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_wait")]
        internal static extern ref TaskWait Wait(ref TaskEventCore<TSlot> core);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_onCompleted")]
        internal static extern ref System.Action? OnCompleted(ref TaskEventCore<TSlot> core);
    }

    /// <summary>
    /// Gets the wait a timed event is parked in: its choice's generation, or 0 if the thread is not parked on it (no
    /// wait, one chosen already, or not yet past registering with every branch).
    /// </summary>
    internal static long ParkedWait<TEvent>(TimedEvent<TEvent> timed)
        where TEvent : Event => TimedEventFields<TEvent>.Direct(timed) is { } direct ? direct.ParkedWait : ParkedWait(TimedEventFields<TEvent>.Choice(timed));

    /// <summary>As <see cref="ParkedWait{TEvent}(TimedEvent{TEvent})"/>, for a choice.</summary>
    internal static long ParkedWait(Choice choice)
    {
        var state = Volatile.Read(ref ChoiceFields.State(choice));
        return (state & 0xFF) == 0x80 ? state >> 8 : 0;
    }

    /// <summary>Gets the deadline of a timed event's current wait, in its scheduler's clock's timestamps; 0 before one was armed.</summary>
    internal static long Deadline<TEvent>(TimedEvent<TEvent> timed)
        where TEvent : Event
    {
        if (TimedEventFields<TEvent>.Direct(timed) is { } direct)
        {
            return direct.Deadline;
        }

        var handles = ChoiceFields.Handles(TimedEventFields<TEvent>.Choice(timed));
        return handles[1].Timer is { } timer ? Volatile.Read(ref TimeBranchTimerFields.Deadline(timer)) : 0;
    }

    /// <summary>
    /// Gets a value indicating whether a timed event's thread is parked on it with its deadline pending in a timer
    /// queue at rest (see <see cref="TimersSettled(TimerQueue, int)"/>): a fake clock's advance past the deadline
    /// then times the wait out before it returns.
    /// </summary>
    internal static bool ParkedWithDeadline<TEvent>(Scheduler scheduler, TimedEvent<TEvent> timed)
        where TEvent : Event
    {
        TimerEntry? entry = TimedEventFields<TEvent>.Direct(timed) is { } direct ? direct : ChoiceFields.Handles(TimedEventFields<TEvent>.Choice(timed))[1].Timer;
        return ParkedWait(timed) != 0
            && entry is { IsPending: true }
            && TimersSettled(scheduler, PendingTimers(scheduler));
    }

    private static class TimedEventFields<TEvent>
        where TEvent : Event
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_choice")]
        internal static extern ref Choice Choice(TimedEvent<TEvent> timed);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_direct")]
        internal static extern ref TimedWait? Direct(TimedEvent<TEvent> timed);
    }

    private static class ChoiceFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_state")]
        internal static extern ref long State(Choice choice);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_handles")]
        internal static extern ref ChoiceBranch[] Handles(Choice choice);
    }

    private static class TimeBranchTimerFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_deadline")]
        internal static extern ref long Deadline(TimeBranchTimer timer);
    }

    private static class ChannelReadEventFields<T>
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_wait")]
        internal static extern ref ChannelWait Wait(ChannelReadEvent<T> read);
    }

    private static class ChannelWriteEventFields<T>
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_wait")]
        internal static extern ref ChannelWait Wait(ChannelWriteEvent<T> write);
    }

    private static class ChannelWaitFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_task")]
        internal static extern ref TaskEvent<bool>? Task(ref ChannelWait wait);
    }

    private static class TaskWaitFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_waiter")]
        internal static extern ref object? Waiter(ref TaskWait wait);
    }

    private static class ExitEventFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_joiners")]
        internal static extern ref object? Joiners(ExitEvent exit);
    }

    /// <summary>Gets a value indicating whether <paramref name="thread"/> is parked on <paramref name="ask"/>, waiting for its decision.</summary>
    internal static bool IsParkedOn<T>(AskEvent<T> ask, GreenThread thread) => Volatile.Read(ref AskEventFields<T>.Waiter(ask)) == thread;

    private static class AskEventFields<T>
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_waiter")]
        internal static extern ref object? Waiter(AskEvent<T> ask);
    }

    private static class SchedulerFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_watchdog")]
        internal static extern ref Watchdog Watchdog(Scheduler scheduler);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_inject")]
        internal static extern ref ConcurrentQueue<GreenThread> Inject(Scheduler scheduler);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_overflow")]
        internal static extern ref ConcurrentQueue<GreenThread> Overflow(Scheduler scheduler);
    }

    private static class WorkerFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_thread")]
        internal static extern ref Thread Thread(Worker worker);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_inbound")]
        internal static extern ref ConcurrentQueue<GreenThread> Inbound(Worker worker);

        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_runNext")]
        internal static extern ref GreenThread? RunNext(Worker worker);
    }

    private static class CancellationEventFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_waiter")]
        internal static extern ref object? Waiter(CancellationEvent whenCanceled);
    }

    private static class OsThreadContextFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_outside")]
        internal static extern ref OutsideCounters? Outside(OsThreadContext context);
    }

    private static class GreenThreadFields
    {
        [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_exit")]
        internal static extern ref object? Exit(GreenThread thread);
    }
}
