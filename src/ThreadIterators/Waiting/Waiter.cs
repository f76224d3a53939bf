using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// Someone waiting in a <see cref="WaiterQueue"/>: a green thread (parked on an event), an OS thread (blocked on
/// <see cref="Signal"/>) or an asynchronous operation (awaiting <see cref="Completion"/>). Senders wait for room in a
/// full bounded mailbox; receivers of a <see cref="SharedMailbox{T}"/> wait for a message.
/// </summary>
/// <remarks>
/// <para>
/// Exactly one party ends each wait: a release (<see cref="Woken"/>) or the waiter itself (<see cref="Withdrawn"/>: it
/// found what it waited for after all, was cancelled, or its scheduler was disposed). A compare-and-swap on
/// <see cref="State"/> decides which. A woken waiter only tries again; someone else may have got there first, and then
/// it waits again.
/// </para>
/// <para>
/// A sender waiting on a rendezvous mailbox (capacity 0) also offers its message (<see cref="Offer"/>), and the
/// mailbox's receiver may take it straight from the queue (<see cref="WaiterQueue.TryTakeOffer{T}"/>): that ends the
/// wait as <see cref="Taken"/>, the message handed over, and the sender only goes on. A release (<see cref="Woken"/>)
/// instead lets it try to hand the message to the receiver itself.
/// </para>
/// <para>
/// Every wait has a ticket, kept in <see cref="State"/> above the two state bits. A green thread can be woken and
/// resumed on another worker while the worker that queued it is still deciding whether to withdraw; if the resumed
/// thread queues again, the ticket has changed and the late withdrawal fails, as it must, instead of cancelling the new
/// wait and leaving the thread parked with nobody to wake it.
/// </para>
/// <para>
/// Any thread: the waiter's own side (its worker, OS thread or async operation), its queue's releases, under the
/// queue's lock, and a stop race on <see cref="State"/>, with compare-and-swaps; <see cref="Queued"/>,
/// <see cref="Branch"/> and <see cref="BranchGeneration"/> are under the queue's lock.
/// </para>
/// </remarks>
internal sealed class Waiter
{
    /// <summary>In <see cref="State"/>: queued and not yet woken.</summary>
    internal const long Waiting = 0;

    /// <summary>In <see cref="State"/>: a release woke it.</summary>
    internal const long Woken = 1;

    /// <summary>In <see cref="State"/>: it stopped waiting before a release reached it.</summary>
    internal const long Withdrawn = 2;

    /// <summary>In <see cref="State"/>: a rendezvous mailbox's receiver took the message it offered; the send is done.</summary>
    internal const long Taken = 3;

    /// <summary>The state bits of <see cref="State"/>; the ticket is above them.</summary>
    internal const long StateMask = 3;

    private Waiter(GreenThread? thread, ManualResetEventSlim? signal, TaskCompletionSource? completion)
    {
        Thread = thread;
        Signal = signal;
        Completion = completion;
    }

    /// <summary>The current wait's ticket, shifted left by two, with <see cref="Waiting"/>, <see cref="Woken"/> or <see cref="Withdrawn"/>.</summary>
    internal long State;

    /// <summary>Whether the waiter is in its queue. Under the queue's lock.</summary>
    internal bool Queued;

    /// <summary>
    /// The choice branch a green thread waits for in the current wait, or null for a plain wait. Written by
    /// <see cref="WaiterQueue.Add(Waiter, ChoiceBranch, long)"/> and read by its release, both under the queue's lock, so a release of an old wait
    /// never fires a branch of a new one.
    /// </summary>
    internal ChoiceBranch? Branch;

    /// <summary>The choice's wait that <see cref="Branch"/> was registered for. Under the queue's lock.</summary>
    internal long BranchGeneration;

    /// <summary>
    /// What a sender waiting on a rendezvous mailbox offers: its <see cref="PutEvent{T}"/> (a green thread), or a
    /// <see cref="System.Runtime.CompilerServices.StrongBox{T}"/> holding the message (an OS thread or an async send);
    /// null otherwise. Set before the waiter is queued.
    /// </summary>
    internal object? Offer;

    /// <summary>Gets the green thread that waits, if it is one.</summary>
    internal GreenThread? Thread { get; }

    /// <summary>Gets the event a blocked OS thread waits on.</summary>
    internal ManualResetEventSlim? Signal { get; }

    /// <summary>Gets the task a pending asynchronous operation awaits.</summary>
    internal TaskCompletionSource? Completion { get; }

    internal static Waiter ForGreenThread(GreenThread thread, object? offer = null) => new(thread, null, null) { Offer = offer };

    internal static Waiter ForOsThread(object? offer = null) => new(null, new ManualResetEventSlim(false), null) { Offer = offer };

    internal static Waiter ForTask(object? offer = null) => new(null, null, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)) { Offer = offer };

    /// <summary>Gets a value indicating whether a rendezvous mailbox's receiver took the message of the current wait. Any thread.</summary>
    internal bool WasTaken => (Volatile.Read(ref State) & StateMask) == Taken;

    /// <summary>Ends the wait <paramref name="ticket"/> unless a release got there first (or it is no longer the current wait); true if this call ended it.</summary>
    internal bool TryWithdraw(long ticket) => Interlocked.CompareExchange(ref State, ticket | Withdrawn, ticket | Waiting) == (ticket | Waiting);

    /// <summary>Ends the current wait unless a release got there first; for a waiter nobody else can queue again meanwhile.</summary>
    internal bool TryWithdraw() => TryWithdraw(Volatile.Read(ref State) & ~StateMask);

    /// <summary>
    /// For a stop of <paramref name="thread"/>: ends its current wait if it is a plain one (not a choice's branch,
    /// which the stop takes back through the choice) and no release got there first; true if this call ended it, and
    /// the thread's wake-up is the caller's. Any thread, while the thread may be queuing again: the ticket read with
    /// the state makes a late swap fail.
    /// </summary>
    internal bool TryInterrupt(GreenThread thread)
    {
        // The branch is written before the state, under the queue's lock; read after it, it is the branch of this
        // wait. Ticket 0 is a waiter made but never queued, whose state reads as waiting: no wait at all.
        var state = Volatile.Read(ref State);
        return Thread == thread
            && (state & StateMask) == Waiting
            && state > StateMask
            && Branch is null
            && TryWithdraw(state & ~StateMask);
    }

    /// <summary>Lets the waiter try again, or fires its choice branch. Called once per wait, by the release that won <see cref="State"/>, under the queue's lock.</summary>
    internal void Wake()
    {
        if (Branch is { } branch)
        {
            branch.Fire(BranchGeneration, alongside: true);
        }
        else
        {
            WakePlain();
        }
    }

    /// <summary>Makes a waiter that is not a choice's branch go on: its thread ready, its signal set, its task completed. Under the queue's lock.</summary>
    internal void WakePlain()
    {
        if (Thread is not null)
        {
            Thread.Scheduler.ReadyAlongside(Thread);
        }
        else if (Signal is not null)
        {
            Signal.Set();
        }
        else
        {
            Completion!.TrySetResult();
        }
    }
}
