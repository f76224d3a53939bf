using System.Collections.Generic;
using System.Linq;

namespace ThreadIterators;

/// <summary>
/// One live green thread in a <see cref="WaitGraph"/>: what it waits for, in words, and which threads it waits on.
/// </summary>
/// <remarks>
/// Read from state the thread and its event already hold, while other threads may run: a thread shown waiting may
/// already have been woken (its <see cref="Description"/> then often shows what woke it, such as messages queued).
/// </remarks>
public sealed class ThreadWait
{
    internal ThreadWait(GreenThread thread, bool isRunning, Event? waitingOn, WaitDescription description)
    {
        Thread = thread;
        IsRunning = isRunning;
        Event = waitingOn;
        Description = description.Text;
        WaitsOn = description.On;
        EndsByTimer = description.Timer;
        EndsFromOutside = description.Outside;
        Calls = thread.Body is CallStack { Depth: > 0 } stack ? stack.Names() : [];
    }

    /// <summary>
    /// Gets the thread's stack of bodies while it runs sub-bodies (<see cref="Event.Call(IEnumerable{Event})"/>): the
    /// methods that made them, the thread's own body first and the one that waits last; empty while it runs no call.
    /// </summary>
    public IReadOnlyList<string> Calls { get; }

    /// <summary>Gets the thread.</summary>
    public GreenThread Thread { get; }

    /// <summary>Gets a value indicating whether a worker was running the thread when the graph was taken.</summary>
    public bool IsRunning { get; }

    /// <summary>Gets the event the thread yielded last, or null if it has not yet run.</summary>
    public Event? Event { get; }

    /// <summary>Gets what the thread waits for, in words: "a message on Mailbox&lt;Int32&gt; 'orders' (0 queued)".</summary>
    public string Description { get; }

    /// <summary>
    /// Gets the threads whose progress would end the wait: the joined thread, the receiver that drains a full
    /// mailbox, the server of an ask, the producer of a pull source. Empty when nobody in particular is known, as for
    /// a receive, which any holder of the mailbox may end by sending.
    /// </summary>
    public IReadOnlyList<GreenThread> WaitsOn { get; }

    /// <summary>Gets a value indicating whether a timer can end the wait (a sleep, a timeout, an ask's deadline).</summary>
    public bool EndsByTimer { get; }

    /// <summary>Gets a value indicating whether something outside the scheduler can end the wait (a task, a cancellation token, a channel).</summary>
    public bool EndsFromOutside { get; }

    /// <inheritdoc/>
    public override string ToString() => $"{Thread}: {(IsRunning ? "running; last waited for " : "waits for ")}{Description}{(Calls.Count == 0 ? string.Empty : $" (in {string.Join(" called by ", Calls.Reverse())})")}";
}
