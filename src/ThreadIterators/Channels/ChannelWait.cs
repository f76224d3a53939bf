using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// What <see cref="ChannelReadEvent{T}"/> and <see cref="ChannelWriteEvent{T}"/> share: the thread the event is bound
/// to, the channel's <c>WaitToReadAsync</c> or <c>WaitToWriteAsync</c> the event is waiting on, held in a
/// <see cref="TaskEvent{T}"/> so a pending wait parks, resumes on the thread's own scheduler, and lingers after a
/// losing choice exactly as a task wait does (the steps are in the remarks of <see cref="TaskEventCore{TSlot}"/>),
/// and the loop that reads or writes around that wait, written once for both over an <see cref="IChannelSide"/>.
/// </summary>
/// <remarks>
/// <para>
/// A mutable struct held in a field of its event (never copied), so a channel event costs no second object until its
/// first wait that does not complete at once. The bound thread's worker only, and the disposing thread for
/// <see cref="Abandon"/>.
/// </para>
/// <para>
/// The loop, for a yield alone (the event's <c>Park</c>, then <see cref="Resume{TSide}"/>) and a choice's first look
/// (the event's <c>TryCompleteNow</c>); the event does step 1 itself, inlined, and calls <see cref="Wait{TSide}"/> for
/// the rest:
/// </para>
/// <list type="number">
/// <item>Try the read or write (<see cref="IChannelSide.TryNow"/>): done if the channel let it. In an explored run that
/// seeds outside work the first try is skipped, so an item or room there already comes back through the channel's
/// wait, as a wake-up the run takes in a seeded order, and whether it had come by now is not a race.</item>
/// <item>Ask the channel for a wait, unless one is outstanding: a lingering wait from a losing choice is waited on
/// again, not asked for again (a single-reader channel cancels its previous wait when asked for a second).</item>
/// <item>Wait on it through the task event: a park (the event marks itself first, since once parked the thread may
/// resume elsewhere), or, for a choice, a look. Not completed: the thread is parked, or the branch not ready.</item>
/// <item>Completed: read its outcome. The channel is completed: the read gets the end, the write is refused, done.
/// Otherwise back to step 1: another reader or writer may have taken what the wait was for.</item>
/// </list>
/// <para>
/// A choice's branch asks for the wait when enlisting if none is outstanding, and once chosen reads the outcome and
/// tries once (<see cref="CompleteChosen{TSide}"/>): taken first by another, the choice waits again. A channel wakes
/// every waiter, so a losing branch holds no wake-up another needs, and its withdrawal only leaves the wait lingering.
/// </para>
/// <para>
/// Why a wait and then a read, and not <c>ReadAsync</c>: a <c>ReadAsync</c> that loses a choice, or whose thread is
/// stopped or disposed, would still take the next item, which then belongs to nobody. <c>WaitToReadAsync</c> reserves
/// nothing, and the built-in channels complete every waiting <c>WaitToReadAsync</c> when an item arrives (every
/// <c>WaitToWriteAsync</c> when room frees), so a withdrawn wait holds no wake-up another party needs.
/// </para>
/// </remarks>
internal struct ChannelWait
{
    /// <summary>The task event that waits on the channel; made by the first wait the channel could not answer at once, then reused.</summary>
    private TaskEvent<bool>? _task;

    /// <summary>
    /// Whether <see cref="_task"/> holds a wait whose outcome has not been read yet: armed, parked on, or lingering
    /// after a choice chose another branch. While it does, the event waits on that one again instead of asking the
    /// channel for another (a single-reader channel cancels its previous wait when asked for a second).
    /// </summary>
    private bool _pending;

    /// <summary>The green thread the event is bound to; set by its first yield.</summary>
    private GreenThread? _owner;

    /// <summary>Whether the scheduler was disposed while the thread waited; the channel's wait may still complete, so the event cannot wait again.</summary>
    private bool _abandoned;

    /// <summary>
    /// Binds the event to <paramref name="thread"/> at its first yield, and refuses any other thread: the event keeps
    /// the item it read or is to write, which two threads would overwrite. Refuses an abandoned event.
    /// </summary>
    internal void Bind(GreenThread thread, Event owner)
    {
        if (_owner != thread)
        {
            var bound = Interlocked.CompareExchange(ref _owner, thread, null);
            if (bound is not null && bound != thread)
            {
                throw new InvalidOperationException($"{thread} yielded {owner}, which belongs to {bound}; a channel event is bound to the first green thread that yields it, so give each thread its own.");
            }
        }

        if (_abandoned)
        {
            throw new InvalidOperationException($"{thread} yielded {owner}, whose wait was abandoned when its scheduler was disposed; the channel may still complete that wait, so use a new event.");
        }
    }

    /// <summary>Step 4 for a thread woken by the channel's wait, then step 1, and the loop again if another took what the wait was for.</summary>
    internal EventOutcome Resume<TSide>(TSide side, GreenThread thread, Worker worker)
        where TSide : struct, IChannelSide
    {
        var resumed = _task!.Resume(thread, worker);
        if (resumed != EventOutcome.Continue)
        {
            return resumed;
        }

        return ChannelMayLet(side) && !side.TryNow() ? Wait(side, thread, worker) : EventOutcome.Continue;
    }

    /// <summary>Registers a choice's branch on the channel's wait, asked for now unless one is outstanding.</summary>
    internal bool Enlist<TSide>(TSide side, GreenThread thread, ChoiceBranch branch, long generation, Worker worker)
        where TSide : struct, IChannelSide
    {
        if (!_pending)
        {
            Arm(side.WaitAsync());
        }

        return ((IChoosable)_task!).Enlist(thread, branch, generation, worker);
    }

    /// <summary>Withdraws a choice's branch: the wait lingers if it lost (or its registration is forgotten if chosen); nothing was read or written.</summary>
    internal readonly void Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => ((IChoosable)_task!).Withdraw(thread, branch, chosen);

    /// <summary>Reads the outcome of the chosen branch's wait, then tries once: taken first by another, the choice waits again.</summary>
    internal EventOutcome CompleteChosen<TSide>(TSide side, GreenThread thread)
        where TSide : struct, IChannelSide
    {
        var outcome = ((IChoosable)_task!).CompleteChosen(thread);
        if (outcome != EventOutcome.Continue)
        {
            return outcome;
        }

        if (!ChannelMayLet(side))
        {
            return EventOutcome.Continue;
        }

        return side.TryNow() ? EventOutcome.Continue : EventOutcome.Parked;
    }

    /// <summary>
    /// For a stop: takes <paramref name="thread"/>, parked on the channel's wait, back from the task event's
    /// continuation; true if this call took it. Any thread: the task event is read with a barrier because the stopping
    /// thread did not make it, and a thread that never parked on it is not its waiter, so the exchange fails.
    /// </summary>
    internal bool TryInterrupt(GreenThread thread) => Volatile.Read(ref _task) is { } task && task.TryInterrupt(thread);

    /// <summary>
    /// Finishes a wait a stop took back. The channel's wait stays outstanding and the event lingers on it, as after a
    /// losing choice; nothing was read or written. The stopped thread's worker, or the disposing thread.
    /// </summary>
    internal readonly void CompleteInterrupt(GreenThread thread) => _task!.CompleteInterrupt(thread);

    /// <summary>Forgets <paramref name="thread"/>, parked on the channel's wait when its scheduler was disposed. The disposing thread.</summary>
    internal void Abandon(GreenThread thread)
    {
        if (_pending)
        {
            _task!.Abandon(thread);
            _abandoned = true;
        }
    }

    /// <summary>
    /// The loop from step 2, for an event whose own step 1 found the channel would not let it (or skipped it in a
    /// seeded run): parks the thread on <paramref name="worker"/>, or, with none, looks for a choice
    /// (<c>TryCompleteNow</c>: the wait is asked for now, not at enlisting, so a completed channel answers at once and
    /// completes the choice here). Not inlined, so the event's step 1, on the path where the channel lets it at once,
    /// keeps the small frame it had.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal EventOutcome Wait<TSide>(TSide side, GreenThread thread, Worker? worker)
        where TSide : struct, IChannelSide
    {
        while (true)
        {
            if (!_pending)
            {
                Arm(side.WaitAsync());
            }

            EventOutcome outcome;
            if (worker is null)
            {
                outcome = ((IChoosable)_task!).TryCompleteNow(thread);
            }
            else
            {
                side.BeforePark();
                outcome = _task!.Park(thread, worker);
            }

            if (outcome != EventOutcome.Continue)
            {
                return outcome;
            }

            if (!ChannelMayLet(side) || side.TryNow())
            {
                return EventOutcome.Continue;
            }
        }
    }

    /// <summary>Takes <paramref name="wait"/>, just asked of the channel, as the outstanding wait.</summary>
    private void Arm(ValueTask<bool> wait)
    {
        _task ??= new TaskEvent<bool>();
        _task.For(wait);
        _pending = true;
    }

    /// <summary>
    /// Step 4: reads the outcome of the wait that has just completed: true if the channel may let the event read or
    /// write now; false if it is completed, which <paramref name="side"/> records, with the error it was completed with.
    /// </summary>
    private bool ChannelMayLet<TSide>(TSide side)
        where TSide : struct, IChannelSide
    {
        side.AfterWait();
        _pending = false;
        Exception? error;
        try
        {
            if (_task!.Result)
            {
                return true;
            }

            error = null;
        }
        catch (ChannelClosedException closed)
        {
            // Some channels wrap their error, or report a plain completion this way: the error is the inner one.
            error = closed.InnerException;
        }
        catch (Exception exception)
        {
            // The built-in channels fail the wait with the error the channel was completed with.
            error = exception;
        }

        side.Closed(error);
        return false;
    }
}
