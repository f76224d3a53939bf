using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

// Stopping a thread (Stop and InterruptWait here; the thread's side in Worker.RunTurn; each event's TryInterrupt and
// CompleteInterrupt). A stop must end a thread that is parked (someone owes it one wake-up), queued or running, from
// any thread, and the message path must not pay for it. It uses what every park already has: the one wake-up a parked
// thread is owed, which a stop competes for as another waker would, and the full fence of the park's own
// compare-and-swap (or lock).
// The stopping side, on any thread (Stop):
//   1. Refuse if the thread has ended (IsCompleted): return false.
//   2. Compare-and-swap PendingFault from null to the stop, a captured GreenThreadStoppedException carrying the reason.
//      A second stop, or an event's fault already there, loses and returns false. The swap is a full fence.
//   3. Unless the scheduler is being disposed (which ends the thread itself, with this stop as its exception), read
//      WaitingOn and call its TryInterrupt (InterruptWait): it takes back the thread's wake-up with the same
//      compare-and-swap or lock the event's wakers use (list below), and succeeds only if the thread is parked there in
//      a plain wait and no waker got there first.
//   4. It succeeded: the thread is parked and nothing else will make it ready, so this side owns it until it is ready.
//      It sets WaitingOn to a StoppedWaitEvent that remembers the interrupted event, and makes the thread ready
//      (Scheduler.Ready). It failed: the thread runs or is queued, a waker woke it, or it is parking right now; steps 5
//      and 6 see the stop.
// The thread's side, on its worker (Worker.RunTurn):
//   5. After every Park that parked the thread (and every Resume that parked it again: a choice or a shared receive
//      that waits once more), one plain read of PendingFault; a stop there: InterruptWait (steps 3 and 4) on this
//      worker. This read closes the race with step 3. The worker set WaitingOn and registered before the park's
//      compare-and-swap (or lock), and reads after it; step 3 swapped before it reads WaitingOn and takes back. With a
//      full fence on both sides (Dekker's pattern), either the stop finds the park, or this read finds the stop. The
//      thread may already run on another worker by then: a take-back is safe from any thread, and fails if there is
//      nothing to take.
//   6. After a Park that completed at once (Continue), the same read; a stop there: the body gets the result (a message
//      taken must reach it) and the step budget is set to 1, so that the budget's check, which looks at PendingFault,
//      ends the thread at its next yield, before that event's Park. A stop first seen at the budget's last step parks
//      that event as any yield does (the same two looks follow). A thread queued at a yield is ended by the yield's
//      Resume (YieldEvent); one queued by its budget parks on its event then (DeferredParkEvent), and one whose event
//      completed at once gets the result and ends at its next yield (EventOutcome.Delivered), so that a result already
//      decided for it, such as a reply Reply() reported delivered, is never dropped. One stopped before its first turn
//      is ended by the turn itself: its body never starts.
//   7. The turn that runs a thread made ready in step 4 resumes it from the StoppedWaitEvent: the interrupted event's
//      CompleteInterrupt finishes, on the thread's own worker, what a take-back from another thread could not (a choice
//      withdraws every branch as a loser, as disposal does; a put clears its waiting flag; a task or channel wait
//      lingers), and the thread ends with its PendingFault through Scheduler.Exit: finally blocks run once, on this
//      worker, and a stop is not reported as unobserved.
//   8. Disposal (Scheduler.StopParked) finishes the interrupted wait the same way (the StoppedWaitEvent's Abandon) and
//      ends the thread with its pending stop if it has one, else with the disposal's OperationCanceledException.
// The WaitingOn that step 3 reads may be stale: the thread woke, ran, and now parks on another event, or in a choice
// over the same mailbox, or has ended while another thread took its mailbox over. So each take-back (the contract is in
// the remarks of Event.TryInterrupt) checks that what it takes is the thread's own plain wait:
//   - A mailbox receive (the pull events receive through one; Mailbox.TryInterruptReceive): the park mark, taken
//     with the sender's compare-and-swap, and the wake counted as a sender counts it. The head segment is read before
//     and after its tail word (a segment pooled meanwhile has a new life count in the word, which fails the swap),
//     and after the swap _receiver must be the thread and no chooser set. Otherwise the mark was the thread's
//     choice's, or a later receiver's: the stop puts it back, or, if a message came while it held the mark (its
//     sender found none and woke nobody), wakes the receiver as that sender would have. Abandon takes a mark that
//     was put back while it waited.
//   - A timed receive: the same, for the thread the timed event is bound to (TimedReceive.cs); another timed event
//     takes back through its choice.
//   - A choice: the state word, from parked with none chosen to "stopped" (127 in the chosen bits, above any
//     branch), with the swap every fire uses, so later fires find the wait decided. A choice is bound to one thread
//     for good.
//   - Exited, Ended: the joiner entry, under the joined thread's exit lock; the entry is the thread itself (a
//     choice's is a ticket).
//   - A task, a channel read or write, an ask, a token wait (Event.WhenCanceled): the waiter slot, from the thread to
//     null, as disposal does. A task's continuation, or the channel's wait, stays registered and the wait lingers,
//     as a choice's losing branch does, so nothing is read or written; a token wait then unregisters (a wait
//     publishes the thread only after storing its registration).
//   - A sleep: the timer entry, cancelled under the timer queue's lock, never by the unlocked look Cancel makes
//     first: the lock orders the cancel against the schedule on the thread's worker. Its sleeper must be the thread;
//     a second thread's entry on the same sleep is linked behind the first for good, where a stop finds it.
//   - A shared receive, a put: the waiter, from waiting with its current ticket to withdrawn, as its own withdrawal
//     does, if it is the thread's, no choice's branch is recorded with the ticket, and the ticket is not 0 (a waiter
//     made but not yet queued reads as waiting). The queue drops it at its next release.
//   - A credit acquire: its place in the window's queue, under the window's lock. The acquirer's decrement stays
//     counted, and the release that reaches its place gives that credit back to the window.
//   - Event.Never: the thread's record in the event's weak table of parked threads, made by the park and removed
//     under the table's lock; shared by every thread, the event has no word of its own to swap (NeverEvent.cs).
//   - A yield, a deferred park, a put that found room: nothing; a thread there is queued or running.
// An unyielded put (a Put(message) into a full mailbox, whose message only its yield sends) uses the same read: its
// making puts a mark, an UnyieldedEventException's capture, in PendingFault while the field is null (MarkUnyielded),
// and its park, or the timed wait made of it (WithTimeout), takes the mark back (Yielded). Only that path marks: it
// allocates the put anyway. An ask is left to the analyzer (TI0002): an allocated mark cost every ask 200 B and about
// 100 ns (432 against 232 B, 250-320 against 150-185 ns on 1 worker), and a shared one would cost it two interlocked
// operations. A thread that yields anything but a put made by Put (IPutYield) while a mark stands ends with it there,
// on its own worker, before that event does anything; one whose body ends first ends with it too (Worker.RunTurn). The
// look for a stop after a park ignores marks: by then the thread may run on another worker and have marked its next
// put, which that look once took for a stop, ending the thread "Completed" mid-loop. The budget's check and
// DeferredParkEvent skip the mark of the event being yielded (IsMarkOf). A stop replaces a mark (step 2), so a stop is
// never lost to one.
// What it costs: a message hop pays two plain reads of PendingFault (at the yield, and after the park), on a line the
// worker has just used, and nothing else: no interlocked operation and no store. The take-backs are the events' own withdrawal paths, run only by a stop.
// StopRaceTests holds a stop at its two racy points (TestHooks.AfterStopReadWait, AfterStopTookMark) while the thread
// ends and a newcomer parks on its mailbox, or while the thread parks in a choice over the mailbox, with and without a
// message arriving while the mark is held. The DEBUG life-state checks caught the ticket-0 case above: a stop that
// withdrew a waiter made but not yet queued readied a running thread.
// Designs not taken. A look at the stop when a thread resumes, or before it parks, instead of after: neither closes the
// race of step 5, which needs a look after the park's fence, so each would be a second read per hop; and a look before
// Resume would have to undo a wake-up (a receive resumed by its sender has its message in the mailbox, a shared
// receive's would have to be passed on) where step 6 lets the thread take what it was woken for. A per-thread lock held
// across the take-back and taken by Scheduler.Exit, so that a thread cannot end while a stop takes its wait back: it
// would guard the one case a stale WaitingOn can get wrong, a receiver that took a mailbox over from the ended thread,
// at the price of a lock on every thread's end, and could hold a worker while the stopping thread is preempted; the
// mailbox's give-back handles that case instead. A stop that ends the thread on the stopping thread, as disposal does:
// finally blocks would run off the scheduler's workers, beside green threads that may assume they do not.
public sealed partial class GreenThread
{
    /// <summary>
    /// Asks the thread to stop, as Erlang's <c>exit(Pid, Reason)</c> does: it ends at its next wait, its
    /// <c>finally</c> blocks run once on a worker of its scheduler, and it ends <see cref="ThreadOutcome.Canceled"/>
    /// with a <see cref="GreenThreadStoppedException"/> that carries <paramref name="reason"/>. Returns at once; join
    /// the thread (<see cref="Ended"/>, <see cref="Wait()"/>) to wait for its end. Any thread, green or not, the
    /// thread itself included.
    /// </summary>
    /// <remarks>
    /// <para>
    /// A thread parked on an event has its wait withdrawn without effect, as a losing branch of a <see cref="Choice"/>
    /// is: a receive takes no message (it stays in the mailbox), a put sends nothing and holds no room, a credit
    /// acquire takes no credit, a join leaves the joined thread's joiners, a sleep's timer is cancelled, a task wait
    /// lingers harmlessly on its task, a choice withdraws every branch. Then the thread is made ready, and its next
    /// turn disposes its body. If a waker woke the thread at the same moment (a message arrived), the wake-up stands:
    /// the thread takes what it was woken for, and stops at its next yield.
    /// </para>
    /// <para>
    /// A thread that is running or queued stops at its next yield: if that yield parks it, the wait is withdrawn as
    /// above; if the event completes at once (a message was already there), the body gets its result and the thread
    /// stops at the yield after, before that event does anything. A thread stopped before its first turn never runs
    /// its body. A thread that never yields again cannot be stopped: nothing interrupts a body between two yields.
    /// </para>
    /// <para>
    /// The thread may still end another way first: its body may finish, or fault, before the stop takes effect. Only
    /// the first stop counts; later ones, and stops of a thread that has ended, return false.
    /// </para>
    /// <example>
    /// A supervisor that stops a worker that has not answered in time, and sees why it ended:
    /// <code>
    /// worker.Stop("no answer in 5 s");
    /// yield return worker.Ended;
    /// var stopped = (GreenThreadStoppedException)worker.Exception!;   // Outcome is Canceled
    /// Console.WriteLine(stopped.Reason);                              // no answer in 5 s
    /// </code>
    /// </example>
    /// </remarks>
    /// <param name="reason">Why the thread is stopped, for <see cref="GreenThreadStoppedException.Reason"/> and its message; any object, or null.</param>
    /// <returns>True if this call asked the thread to stop; false if it had ended, or a stop was asked for before.</returns>
    public bool Stop(object? reason = null)
    {
        if (IsCompleted)
        {
            return false;
        }

        var stop = ExceptionDispatchInfo.Capture(new GreenThreadStoppedException(this, reason));

        // The exchange's full fence comes before the look at the wait below. Every park passes a full fence after it
        // sets WaitingOn and registers, before its worker looks at PendingFault: so either this call finds the park,
        // or that worker finds the stop (step 5 in this file's header).
        while (true)
        {
            var pending = Volatile.Read(ref _pendingFault);
            if (pending is not null && pending.SourceException is not UnyieldedEventException)
            {
                return false;
            }

            // Over an unyielded put's mark too: the stop ends the thread whether or not the put is yielded then.
            if (Interlocked.CompareExchange(ref _pendingFault, stop, pending) == pending)
            {
                break;
            }
        }

        if (!Scheduler.IsStopping)
        {
            // A disposal under way ends the thread itself, with this stop as its exception.
            InterruptWait();
        }

        return true;
    }

    /// <summary>
    /// Marks <paramref name="unyielded"/>, an event only its yield makes good (a put into a full mailbox), as made and
    /// not yet yielded, <paramref name="loss"/> saying what dropping it loses: its
    /// fault stands in <see cref="PendingFault"/> until the event parks (<see cref="Yielded"/>), so that a yield of
    /// anything else, or the body's end, ends the thread with it. Nothing if a stop or another mark is there. The
    /// thread's body, on its worker; only where such an event is made, off the hop.
    /// </summary>
    internal void MarkUnyielded(Event unyielded, string loss) =>
        Interlocked.CompareExchange(ref _pendingFault, ExceptionDispatchInfo.Capture(new UnyieldedEventException(this, unyielded, loss)), null);

    /// <summary>
    /// Takes back the mark of <paramref name="yielded"/>, now yielded (its park, or a choice made of it); a put or an
    /// put parking takes back any mark (<paramref name="anyMark"/>), since a thread that makes several and yields them
    /// in another order yields the one marked too.
    /// </summary>
    internal void Yielded(Event yielded, bool anyMark = false)
    {
        if (_pendingFault is { SourceException: UnyieldedEventException mark } pending && (anyMark || mark.Event == yielded))
        {
            // A stop may replace the mark meanwhile: then it stays.
            Interlocked.CompareExchange(ref _pendingFault, null, pending);
        }
    }

    /// <summary>Tells whether <paramref name="pending"/> is only the mark of <paramref name="next"/>, which the thread is yielding now: no stop.</summary>
    internal static bool IsMarkOf(ExceptionDispatchInfo pending, Event next) =>
        pending.SourceException is UnyieldedEventException mark && mark.Event == next;

    /// <summary>Gets the mark of an event the body made and never yielded, for a body that has ended; null if none.</summary>
    internal ExceptionDispatchInfo? UnyieldedAtEnd => _pendingFault is { SourceException: UnyieldedEventException } mark ? mark : null;

    /// <summary>
    /// For a stop: takes back the wake-up the thread's current wait owes it, if it is parked, and makes it ready to
    /// end; does nothing if the thread runs or is queued, a waker got there first, or another call took it. Any
    /// thread: the stopping one, or the thread's own worker right after a park that the stop may have missed.
    /// </summary>
    internal void InterruptWait()
    {
        var waitingOn = Volatile.Read(ref _waitingOn);
        if (TestHooks.Enabled)
        {
            TestHooks.AfterStopReadWait?.Invoke(this);
        }

        if (waitingOn is null || !waitingOn.TryInterrupt(this))
        {
            return;
        }

        // This call holds the thread's one wake-up, so nothing else touches it until it is ready.
        _waitingOn = new StoppedWaitEvent(waitingOn);
        Scheduler.Ready(this);
    }
}
