using System;

namespace ThreadIterators;

// The receiver side of a receive with a timeout (TimedReceive, whose remarks number the steps): the plain receive's
// take and park, with a deadline published before the park and looked at once after it. The receiving green thread
// only, on whichever worker runs it.
public sealed partial class Mailbox<T>
{
    /// <summary>
    /// A receive with a timeout: takes the next message (or the end) if there is one; else, for a zero timeout, times
    /// out at once; else publishes the wait's deadline and parks. The receiving thread, when it yields the timed event.
    /// </summary>
    internal EventOutcome TakeOrParkTimed(GreenThread thread, ReceiveEvent<T> receive, TimedReceive<T> wait, Worker worker)
    {
        if (Receiver != thread)
        {
            Bind(thread);
        }

        // One deadline per yield, however often the park is retried: a timeout bounds the whole wait.
        var armed = 0L;
        var deadline = 0L;
        while (true)
        {
            if (TryTake(out var message))
            {
                receive.Deliver(message);
                return wait.Ended(timedOut: false);
            }

            if (AtEnd)
            {
                receive.DeliverEnd();
                return wait.Ended(timedOut: false);
            }

            if (armed == 0 && TryTakeOffered(out message))
            {
                // A rendezvous mailbox's waiting sender: taken before the wait arms, so a zero timeout takes it too.
                receive.Deliver(message);
                return wait.Ended(timedOut: false);
            }

            if (armed == 0 && !wait.TryArm(thread, out armed, out deadline))
            {
                return wait.Ended(timedOut: true);
            }

            if (TestHooks.Enabled)
            {
                TestHooks.BeforeTimedPark?.Invoke(this);
            }

            if (TryPark())
            {
                worker.Counters.MailboxWaits++;
                // The one look after the park (its swap is the fence): a fire that came before the mark was set could
                // not take it, and left the wait expired for this look to end. Taking the mark back makes the thread
                // this worker's again; a sender that took it first wakes the thread as usual.
                if (deadline == TimedReceive<T>.NoDeadline)
                {
                    return EventOutcome.Parked;
                }

                var expired = armed | TimedReceive<T>.Expired;
                if (wait.State == expired && TryInterruptReceive(thread, wait, expired))
                {
                    var outcome = FinishTimed(thread, receive, wait, expired: true);
                    wait.Clear();
                    return outcome;
                }

                wait.ScheduleIfIdle(deadline);
                return EventOutcome.Parked;
            }
        }
    }

    /// <summary>
    /// The end of a timed receive that parked (or took its wake-up back): the message, if one is there by now; else the
    /// end; else the timeout, if the deadline took the wake-up. The receiving thread.
    /// </summary>
    internal EventOutcome FinishTimed(GreenThread thread, ReceiveEvent<T> receive, TimedReceive<T> wait, bool expired)
    {
        if (TryTake(out var message))
        {
            receive.Deliver(message);
            wait.Resolved(timedOut: false);
            return EventOutcome.Continue;
        }

        if (AtEnd)
        {
            receive.DeliverEnd();
            wait.Resolved(timedOut: false);
            return EventOutcome.Continue;
        }

        if (!expired)
        {
            // Woken with neither a message, the end nor an expired deadline: a runtime bug (see TakeOnResume).
            throw new InvalidOperationException($"{thread} was resumed from {receive} with a timeout with no message in the mailbox and the deadline not reached.");
        }

        wait.Resolved(timedOut: true);
        return EventOutcome.Continue;
    }
}
