using System;
using System.Collections.ObjectModel;
using System.Diagnostics;
using System.Numerics;
using System.Threading;

namespace ThreadIterators;

// A choice's wait: binding, looking, enlisting, parking and resolving (the steps are in the header of IChoosable.cs),
// firing, and taking a wait back.
//
// What each kind of branch registers when enlisted (the branch protocol's steps are in the header of IChoosable.cs),
// and how a late waker is kept from reaching a later wait:
//   - A mailbox receive: the receiver's park mark, as a plain receive, with the branch stored in the mailbox's
//     _chooser before the mark (Mailbox.EnlistReceive). The sender that takes the mark reads the branch and the
//     choice's current generation, counts its wake in _wakes, then fires. Withdrawal clears the mark or, if a sender
//     took it, waits until _wakes has counted it (Abandon's wait), so the sender read the generation before the
//     choice could move on to a new one. The plain receive's hop pays one field read (_chooser, null) for this on
//     the wake path. A completion takes the mark as a sender does and fires the branch; the chosen receive then
//     reports the end.
//   - A shared mailbox's receive, a put: the waiter queue's ticketed waiter; the branch and generation are written
//     into the waiter by WaiterQueue.Add and read by the release, both under the queue's lock.
//   - A channel read or write: the task event's ticket, on the channel's WaitToReadAsync or WaitToWriteAsync; a
//     losing branch lingers as a task event does (ChannelWait), and reads or writes nothing.
//   - A join, a task, a credit acquire, a token, an ask: a ChoiceTicket (branch and generation) in the joiner list,
//     the task's waiter slot, the credit window's watcher list, the token event's waiter slot (its registration is
//     removed with Unregister, which never waits for a callback running on the canceling thread), or the ask's
//     waiter slot. Credit watchers reserve nothing: a release fires them all, and each tries TryAcquire in
//     CompleteChosen.
//   - The pull events: the park mark of the mailbox they receive from (the source's requests, the puller's replies),
//     through that mailbox's receive event; what the event does with the message happens in TryCompleteNow and
//     CompleteChosen.
//   - Time (Event.Sleep as a branch, and the deadline of WithTimeout, whose TimedEvent is a choice of two except for
//     a mailbox receive, which TimedReceive times without one): a time branch comes last in every look, so a deadline
//     already passed never wins over a message already there; enlisting arms the branch's own lazy timer entry, made
//     by its first wait and kept (the steps are in the remarks of TimeBranchTimer).
// A choice stops a parked wait itself: TryInterrupt swaps "parked, none chosen" to "stopped" (127 in the chosen bits,
// above any branch), so every later fire finds the wait decided. In a driven run that seeds outside work, a ticket
// fired from another OS thread is handed to the run's controller and fired on the driving thread when its strategy
// takes the thread (ChoiceTicket.Fire, IRunController.HoldFire).
public sealed partial class Choice
{
    /// <summary>Gets a value indicating whether wait <paramref name="generation"/> is still on with no branch chosen: a fire for it would choose. Any thread.</summary>
    internal bool IsOpen(long generation)
    {
        var state = Volatile.Read(ref _state);
        return (state & ~(ChosenMask | ParkedBit)) == generation << GenerationShift && (state & ChosenMask) == 0;
    }

    /// <summary>
    /// Chooses branch <paramref name="index"/> for wait <paramref name="generation"/>, unless that wait is over or
    /// another branch was chosen; if the thread has parked, makes it ready. True if this call chose the branch (a
    /// rendezvous mailbox hands a message over only then). Any thread.
    /// </summary>
    internal bool Fire(long generation, int index, bool alongside)
    {
        var mine = generation << GenerationShift;
        while (true)
        {
            var state = Volatile.Read(ref _state);
            if ((state & ~(ChosenMask | ParkedBit)) != mine || (state & ChosenMask) != 0)
            {
                return false;
            }

            if (Interlocked.CompareExchange(ref _state, state | (long)(index + 1), state) == state)
            {
                if ((state & ParkedBit) != 0)
                {
                    // Parked, so the owner is set and cannot change before this wake-up resumes it.
                    var thread = _owner!;
                    if (alongside)
                    {
                        thread.Scheduler.ReadyAlongside(thread);
                    }
                    else
                    {
                        thread.Scheduler.Ready(thread);
                    }
                }

                return true;
            }
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        if (_owner != thread)
        {
            Bind(thread);
        }

        return Wait(thread, worker, again: false);
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker)
    {
        var outcome = Resolve(thread);
        return outcome == EventOutcome.Parked ? Wait(thread, worker, again: true) : outcome;
    }

    internal override void Abandon(GreenThread thread)
    {
        // Disposed while parked (step 6 of IChoosable): every registration goes, and a wake-up a branch was given
        // passes on, the chosen branch's too, since the thread will never use it.
        var enlisted = _enlisted;
        _enlisted = 0;
        while (enlisted != 0)
        {
            var index = BitOperations.TrailingZeroCount(enlisted);
            enlisted &= enlisted - 1;
            _choosables[index].Withdraw(thread, _handles[index], chosen: false);
        }
    }

    internal override bool TryInterrupt(GreenThread thread)
    {
        // The owner never changes once set, so a park of this choice is the thread's own. Parked with no branch chosen:
        // the stop decides the wait instead of a branch, with the swap every waker uses, and holds the thread's wake-up.
        var state = Volatile.Read(ref _state);
        return Volatile.Read(ref _owner) == thread
            && (state & (ParkedBit | ChosenMask)) == ParkedBit
            && Interlocked.CompareExchange(ref _state, state | StoppedChoice, state) == state;
    }

    // The branches are still registered: withdraw them all as losers, on the stopped thread's worker (or the
    // disposing thread), exactly as a disposal does.
    internal override void CompleteInterrupt(GreenThread thread) => Abandon(thread);

    private void Bind(GreenThread thread)
    {
        var owner = Interlocked.CompareExchange(ref _owner, thread, null);
        if (owner is not null && owner != thread)
        {
            throw new InvalidOperationException($"{thread} yielded {this}, which belongs to {owner}; a choice is bound to the first green thread that yields it, so give each thread its own.");
        }

        _controller = thread.Scheduler.Controller;
    }

    /// <summary>
    /// Looks at every branch, then registers with each and parks; or completes the first that could: steps 1 to 4 of
    /// the branch protocol (<see cref="IChoosable"/>). <paramref name="again"/>: the chosen branch could not complete after all, and this is the same yield waiting on.
    /// </summary>
    private EventOutcome Wait(GreenThread thread, Worker worker, bool again)
    {
        if (!again)
        {
            FirstWaitOfYield = _generation + 1;
        }

        while (true)
        {
            var start = _next;
            if (_rotating > 1 && _controller is { } controller)
            {
                // A driven run: which ready branch wins is one of the controller's decisions, not the rotation's.
                start = controller.ChooseBranch(_rotating);
            }

            _next = start + 1 >= _rotating ? 0 : start + 1;

            // Read once: it cannot change while the thread waits (SetEnabled refuses), and a disabled branch is
            // skipped by both loops, so it is neither looked at nor registered with.
            var enabled = _enabled;
            for (var k = 0; k < _order.Length; k++)
            {
                var index = OrderAt(start, k);
                if ((enabled & (1UL << index)) == 0)
                {
                    continue;
                }

                var outcome = _choosables[index].TryCompleteNow(thread);
                if (outcome != EventOutcome.Parked)
                {
                    Index = index;
                    return outcome;
                }
            }

            // Nothing could complete: arm a new wait, then register with each branch. A branch may be fired from the
            // moment it is registered; until the parked bit is set, a fire only records the choice.
            var generation = _generation + 1;
            Volatile.Write(ref _generation, generation);
            var armed = generation << GenerationShift;
            Volatile.Write(ref _state, armed);
            for (var k = 0; k < _order.Length; k++)
            {
                var index = OrderAt(start, k);
                if ((enabled & (1UL << index)) == 0)
                {
                    continue;
                }

                if (!_choosables[index].Enlist(thread, _handles[index], generation, worker))
                {
                    // Could complete after all: choose it, unless a waker chose another first.
                    Fire(generation, index, alongside: false);
                    break;
                }

                _enlisted |= 1UL << index;
                if ((Volatile.Read(ref _state) & ChosenMask) != 0)
                {
                    break;
                }
            }

            if (Interlocked.CompareExchange(ref _state, armed | ParkedBit, armed) == armed)
            {
                return EventOutcome.Parked;
            }

            var resolved = Resolve(thread);
            if (resolved != EventOutcome.Parked)
            {
                return resolved;
            }
        }
    }

    /// <summary>
    /// Withdraws every registration of the wait just chosen and completes the chosen branch; Parked if it could not
    /// after all. Step 5 of the branch protocol (<see cref="IChoosable"/>).
    /// </summary>
    private EventOutcome Resolve(GreenThread thread)
    {
        var chosen = (int)(Volatile.Read(ref _state) & ChosenMask) - 1;
        Debug.Assert(chosen >= 0, $"{this} was resolved with no branch chosen.");
        var enlisted = _enlisted;
        _enlisted = 0;
        while (enlisted != 0)
        {
            var index = BitOperations.TrailingZeroCount(enlisted);
            enlisted &= enlisted - 1;
            _choosables[index].Withdraw(thread, _handles[index], chosen: index == chosen);
        }

        var outcome = _choosables[chosen].CompleteChosen(thread);
        if (outcome != EventOutcome.Parked)
        {
            Index = chosen;
        }

        return outcome;
    }

    /// <summary>The branch looked at <paramref name="k"/>-th by a wait that starts the rotating ones at <paramref name="start"/>.</summary>
    private int OrderAt(int start, int k)
    {
        if (k >= _rotating)
        {
            return _order[k];
        }

        var position = start + k;
        return _order[position >= _rotating ? position - _rotating : position];
    }
}
