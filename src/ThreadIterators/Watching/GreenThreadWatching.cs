using System;
using System.Runtime.CompilerServices;

namespace ThreadIterators;

/// <summary>
/// Watches and links on green threads: what a thread's end tells other threads, as Erlang's monitors and links do.
/// Called as members of <see cref="GreenThread"/> (<c>thread.Watch(mailbox)</c>, <c>thread.Link(other)</c>).
/// </summary>
/// <remarks>
/// <para>
/// Watches and links hear a thread's end through its exit listeners, kept with its end on demand, so a thread nobody
/// watches or links pays nothing for them; which threads trap exits is kept here, apart from every thread. Any thread,
/// green or not.
/// </para>
/// </remarks>
public static class GreenThreadWatching
{
    /// <summary>
    /// Where each thread that traps exits gets its linked threads' exits (<see cref="TrapExits"/>): weakly keyed, so
    /// an entry lives as long as its thread's handle, as it did on the thread; read only when a linked thread ends, so
    /// no thread pays a field for it. Thread-safe by itself.
    /// </summary>
    private static readonly ConditionalWeakTable<GreenThread, IMessageTarget<ThreadExit>> s_trapExits = new();

    /// <summary>
    /// Watches <paramref name="thread"/> (Erlang's <c>monitor</c>, Akka.NET's <c>Watch</c>): when it ends, normally, by
    /// a fault or by a stop, one <see cref="ThreadExit"/> goes to <paramref name="target"/>, naming the returned watch.
    /// If it has ended already, the message goes at once. Any thread, green or not.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The message is sent without waiting, so the target must be unbounded (an unbounded <see cref="Mailbox{T}"/>,
    /// usually the watcher's own). A target that refuses it (completed) makes it a dead letter
    /// (<see cref="DeadLetterReason.RefusedByTarget"/>). A watch that sent its message counts as observing a fault.
    /// </para>
    /// <example>
    /// A parent that starts a worker and hears how it ended, without joining it:
    /// <code>
    /// var downs = new Mailbox&lt;ThreadExit&gt;("downs");
    /// var worker = scheduler.Spawn(Work(), "worker");
    /// var watch = worker.Watch(downs);
    /// var down = downs.Recv();
    /// yield return down;
    /// Console.WriteLine(down.Value);      // GreenThread #2 'worker' ended Faulted: ...
    /// </code>
    /// </example>
    /// </remarks>
    /// <param name="thread">The thread to watch.</param>
    /// <param name="target">Where the message goes; unbounded.</param>
    /// <returns>The watch; <see cref="ThreadWatch.Remove"/> takes it back.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="thread"/> or <paramref name="target"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="target"/> is a bounded mailbox.</exception>
    public static ThreadWatch Watch(this GreenThread thread, IMessageTarget<ThreadExit> target)
    {
        ArgumentNullException.ThrowIfNull(thread);
        Deliver.CheckUnbounded(target, nameof(target));
        var watch = new ThreadWatch(thread, target);
        thread.AddExitListener(watch);
        return watch;
    }

    /// <summary>
    /// Links <paramref name="thread"/> and <paramref name="other"/> (Erlang's <c>link</c>): when either ends abnormally
    /// (a fault, or a stop), the other is stopped (<see cref="GreenThread.Stop"/>) with a <see cref="ThreadExit"/> as
    /// the reason, unless it traps exits (<see cref="TrapExits"/>), in which case it gets that message instead. A
    /// normal end stops nobody; a thread that traps exits hears of it too. Linking a thread that has ended acts on its
    /// end at once. Any thread.
    /// </summary>
    /// <remarks>
    /// <para>
    /// A link is both ways and one per pair: linking a pair again does nothing. A stop passes along a chain of links,
    /// since the stopped thread ends abnormally in turn; a thread that traps exits ends the chain. Stopping a linked
    /// thread does not count as observing the fault that caused it: that fault is still reported through
    /// <see cref="Scheduler.UnobservedFault"/> unless something observes it; a message to a thread that traps exits
    /// does count. A link acts once its thread reads as ended, and before anything joined to that thread resumes.
    /// </para>
    /// <example>
    /// A worker and its helper that must not outlive each other's crash:
    /// <code>
    /// var helper = scheduler.Spawn(Help(), "helper");
    /// GreenThread.Current!.Link(helper);   // a crash of either stops the other
    /// </code>
    /// </example>
    /// </remarks>
    /// <param name="thread">One thread to link; of any scheduler.</param>
    /// <param name="other">The thread to link with; of any scheduler.</param>
    /// <exception cref="ArgumentNullException"><paramref name="thread"/> or <paramref name="other"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="other"/> is <paramref name="thread"/>.</exception>
    public static void Link(this GreenThread thread, GreenThread other)
    {
        ArgumentNullException.ThrowIfNull(thread);
        ArgumentNullException.ThrowIfNull(other);
        if (other == thread)
        {
            throw new ArgumentException($"{thread} cannot be linked to itself.", nameof(other));
        }

        if (FindLink(thread, other) is not null)
        {
            return;
        }

        // If this thread has ended, adding the link acts on that at once. If the other has, adding it there acts on
        // that at once, which takes the link out of this thread's list again.
        var link = new ThreadLink(thread, other);
        if (thread.AddExitListener(link))
        {
            other.AddExitListener(link);
        }
    }

    /// <summary>
    /// Removes the link between <paramref name="thread"/> and <paramref name="other"/> (Erlang's <c>unlink</c>): once
    /// this returns, neither thread's end acts on the other through it. Any thread.
    /// </summary>
    /// <param name="thread">One of the linked threads.</param>
    /// <param name="other">The other linked thread.</param>
    /// <returns>True if there was a link and this call removed it; false if there was none, or one of the two ends already acted on it.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="thread"/> or <paramref name="other"/> is null.</exception>
    public static bool Unlink(this GreenThread thread, GreenThread other)
    {
        ArgumentNullException.ThrowIfNull(thread);
        ArgumentNullException.ThrowIfNull(other);
        if (FindLink(thread, other) is not { } link || !link.TryTake())
        {
            return false;
        }

        thread.RemoveExitListener(link);
        other.RemoveExitListener(link);
        return true;
    }

    /// <summary>
    /// Makes <paramref name="thread"/> trap exits (Erlang's <c>process_flag(trap_exit, true)</c>): the end of a linked
    /// thread, normal or not, is sent to <paramref name="target"/> as a <see cref="ThreadExit"/> instead of stopping
    /// <paramref name="thread"/>. Null stops trapping. Usually called by the thread itself, before it links; any thread.
    /// </summary>
    /// <param name="thread">The thread that traps exits.</param>
    /// <param name="target">Where linked threads' exits go (unbounded), or null to be stopped by them again.</param>
    /// <exception cref="ArgumentNullException"><paramref name="thread"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="target"/> is a bounded mailbox.</exception>
    public static void TrapExits(this GreenThread thread, IMessageTarget<ThreadExit>? target)
    {
        ArgumentNullException.ThrowIfNull(thread);
        if (target is null)
        {
            s_trapExits.Remove(thread);
            return;
        }

        Deliver.CheckUnbounded(target, nameof(target));
        s_trapExits.AddOrUpdate(thread, target);
    }

    /// <summary>
    /// Tells <paramref name="thread"/> of a linked thread's end: a message if it traps exits; otherwise a stop, if the
    /// end was abnormal. True if a message was sent (which observes a fault). The linked thread's ending worker, or
    /// whoever linked a thread that had ended.
    /// </summary>
    internal static bool HearLinkedExit(GreenThread thread, ThreadExit exit)
    {
        if (s_trapExits.TryGetValue(thread, out var trap))
        {
            Deliver.To(trap, exit, exit.Thread);
            return true;
        }

        if (exit.IsAbnormal)
        {
            thread.Stop(exit);
        }

        return false;
    }

    /// <summary>Gets the link between <paramref name="thread"/> and <paramref name="other"/> in <paramref name="thread"/>'s list, if any.</summary>
    private static ThreadLink? FindLink(GreenThread thread, GreenThread other) =>
        (ThreadLink?)thread.FindExitListener(
            static (listener, pair) => listener is ThreadLink link && link.Other(pair.Thread) == pair.Other,
            (Thread: thread, Other: other));
}
