using System;
using System.Threading;

namespace ThreadIterators;

// Watches and links: what a thread's end tells other threads, as Erlang's monitors and links do. Both live in the
// thread's exit event, made on demand, so a thread nobody watches or links pays nothing for them. Any thread.
public sealed partial class GreenThread
{
    /// <summary>
    /// Watches this thread (Erlang's <c>monitor</c>, Akka.NET's <c>Watch</c>): when it ends, normally, by a fault or
    /// by a stop, one <see cref="ThreadExit"/> goes to <paramref name="target"/>, naming the returned watch. If it has
    /// ended already, the message goes at once. Any thread, green or not.
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
    /// <param name="target">Where the message goes; unbounded.</param>
    /// <returns>The watch; <see cref="ThreadWatch.Remove"/> takes it back.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="target"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="target"/> is a bounded mailbox.</exception>
    public ThreadWatch Watch(IMessageTarget<ThreadExit> target)
    {
        Deliver.CheckUnbounded(target, nameof(target));
        var watch = new ThreadWatch(this, target);
        GetExitEvent().AddWatch(watch);
        return watch;
    }

    /// <summary>
    /// Links this thread and <paramref name="other"/> (Erlang's <c>link</c>): when either ends abnormally (a fault, or
    /// a stop), the other is stopped (<see cref="Stop"/>) with a <see cref="ThreadExit"/> as the reason, unless it
    /// traps exits (<see cref="TrapExits"/>), in which case it gets that message instead. A normal end stops nobody;
    /// a thread that traps exits hears of it too. Linking a thread that has ended acts on its end at once. Any thread.
    /// </summary>
    /// <remarks>
    /// <para>
    /// A link is both ways and one per pair: linking a pair again does nothing. A stop passes along a chain of links,
    /// since the stopped thread ends abnormally in turn; a thread that traps exits ends the chain. Stopping a linked
    /// thread does not count as observing the fault that caused it: that fault is still reported through
    /// <see cref="Scheduler.UnobservedFault"/> unless something observes it; a message to a thread that traps exits
    /// does count.
    /// </para>
    /// <example>
    /// A worker and its helper that must not outlive each other's crash:
    /// <code>
    /// var helper = scheduler.Spawn(Help(), "helper");
    /// GreenThread.Current!.Link(helper);   // a crash of either stops the other
    /// </code>
    /// </example>
    /// </remarks>
    /// <param name="other">The thread to link with; of any scheduler.</param>
    /// <exception cref="ArgumentNullException"><paramref name="other"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="other"/> is this thread.</exception>
    public void Link(GreenThread other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other == this)
        {
            throw new ArgumentException($"{this} cannot be linked to itself.", nameof(other));
        }

        var mine = GetExitEvent();
        var theirs = other.GetExitEvent();
        if (mine.FindLink(other) is not null)
        {
            return;
        }

        var link = new ThreadLink(this, other);
        if (!mine.TryAddLink(link))
        {
            // This thread has ended: the link acts on that at once.
            mine.FireLink(link);
            return;
        }

        if (!theirs.TryAddLink(link))
        {
            mine.RemoveLink(link);
            theirs.FireLink(link);
        }
    }

    /// <summary>
    /// Removes the link between this thread and <paramref name="other"/> (Erlang's <c>unlink</c>): once this returns,
    /// neither thread's end acts on the other through it. Any thread.
    /// </summary>
    /// <param name="other">The linked thread.</param>
    /// <returns>True if there was a link and this call removed it; false if there was none, or one of the two ends already acted on it.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="other"/> is null.</exception>
    public bool Unlink(GreenThread other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (Volatile.Read(ref _exit) is not ExitEvent mine || mine.FindLink(other) is not { } link || !link.TryTake())
        {
            return false;
        }

        mine.RemoveLink(link);
        other.GetExitEvent().RemoveLink(link);
        return true;
    }

    /// <summary>
    /// Makes this thread trap exits (Erlang's <c>process_flag(trap_exit, true)</c>): the end of a linked thread, normal
    /// or not, is sent to <paramref name="target"/> as a <see cref="ThreadExit"/> instead of stopping this thread.
    /// Null stops trapping. Usually called by the thread itself, before it links; any thread.
    /// </summary>
    /// <param name="target">Where linked threads' exits go (unbounded), or null to be stopped by them again.</param>
    /// <exception cref="ArgumentException"><paramref name="target"/> is a bounded mailbox.</exception>
    public void TrapExits(IMessageTarget<ThreadExit>? target)
    {
        if (target is not null)
        {
            Deliver.CheckUnbounded(target, nameof(target));
        }

        GetExitEvent().TrapExits = target;
    }

    /// <summary>Drops a removed watch from the thread's exit event, so that it holds no memory until the thread ends.</summary>
    internal void ForgetWatch(ThreadWatch watch) => (Volatile.Read(ref _exit) as ExitEvent)?.RemoveWatch(watch);

    /// <summary>
    /// Tells this thread of a linked thread's end: a message if it traps exits; otherwise a stop, if the end was
    /// abnormal. True if a message was sent (which observes a fault).
    /// </summary>
    internal bool HearLinkedExit(ThreadExit exit)
    {
        if ((Volatile.Read(ref _exit) as ExitEvent)?.TrapExits is { } trap)
        {
            Deliver.To(trap, exit, exit.Thread);
            return true;
        }

        if (exit.IsAbnormal)
        {
            Stop(exit);
        }

        return false;
    }
}
