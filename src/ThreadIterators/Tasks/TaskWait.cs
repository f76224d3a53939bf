using System;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The state of one task wait (armed, waiting, completed), the one wake-up a parked wait owes, the captured fault, and
/// the report of a fault nobody read. <see cref="TaskEventCore{TSlot}"/>, the wait both task events share, keeps the
/// task and result, whose types differ between the events, and calls these steps around them.
/// </summary>
/// <remarks>
/// <para>
/// A mutable struct held in a field of its event's core (never copied), so a wait costs no second object. The arming
/// thread, then the worker running the waiting thread, touch everything except <see cref="_waiter"/>, which the task's
/// continuation (any OS thread, with an exchange) and <see cref="Abandon"/> (the disposing thread, with a
/// compare-and-swap) each try to take: exactly one of them gets the thread.
/// </para>
/// <para>
/// The states: <see cref="Unarmed"/> (new, or abandoned when the continuation had already run),
/// <see cref="Armed"/> (<c>For</c> gave it a task, not yet yielded), <see cref="Waiting"/> (yielded; parked on the
/// task, or about to find it completed), <see cref="Completed"/> (the outcome is captured and may be read), and
/// <see cref="Abandoned"/> (its scheduler was disposed while the thread waited and the task had not completed: the
/// task's continuation is still registered, so the event can never wait again).
/// </para>
/// </remarks>
internal struct TaskWait
{
    /// <summary>Never armed, or left by an abandoned wait whose continuation had already run.</summary>
    internal const int Unarmed = 0;

    /// <summary>Given a task by <c>For</c>; the next yield waits for it.</summary>
    internal const int Armed = 1;

    /// <summary>Yielded: the thread is parked on the task, or the yielding worker is finding it completed.</summary>
    internal const int Waiting = 2;

    /// <summary>The task's outcome is captured; <c>Result</c> and <c>GetResult</c> read it.</summary>
    internal const int Completed = 3;

    /// <summary>Disposed while waiting on a task that had not completed; terminal.</summary>
    internal const int Abandoned = 4;

    /// <summary>
    /// A choice waited on the task and chose another branch, or a stop took the waiting thread back: the continuation
    /// stays registered (a task cannot take it back), and the next wait on the event, alone or in a choice, waits for
    /// the same task without registering again.
    /// </summary>
    internal const int Lingering = 5;

    /// <summary>Left in <see cref="_waiter"/> by the continuation: the task has completed and nothing more will wake anyone.</summary>
    private static readonly object s_fired = new();

    /// <summary>One of the constants above.</summary>
    private int _state;

    /// <summary>
    /// What the task's continuation wakes: the parked thread, or the <see cref="ChoiceTicket"/> of a choice waiting on
    /// the task; taken once, by the continuation (which leaves <see cref="s_fired"/>) or by <see cref="Abandon"/> or a
    /// choice's withdrawal (which leave null).
    /// </summary>
    private object? _waiter;

    /// <summary>The thread of the current or last wait, for messages and for <see cref="Abandon"/>; not cleared by the continuation.</summary>
    private GreenThread? _owner;

    /// <summary>The completed task's exception, rethrown on every read; null after a successful completion.</summary>
    private ExceptionDispatchInfo? _fault;

    /// <summary>Reports <see cref="_fault"/> unless it is read first; exists only for a fault that is not a cancellation.</summary>
    private FaultSentinel? _sentinel;

    /// <summary>Refuses to arm an event that still waits, or whose wait was abandoned; the event then stores its task and calls <see cref="EndArm"/>.</summary>
    internal void BeginArm(Event owner)
    {
        var state = Volatile.Read(ref _state);
        if (state == Waiting)
        {
            throw new InvalidOperationException($"{DescribeCaller()} armed {owner} again while {DescribeOwner()} is still waiting on it; a task event serves one wait at a time, so arm it again after that thread has resumed, or give each wait its own event.");
        }

        if (state == Lingering)
        {
            throw new InvalidOperationException($"{DescribeCaller()} armed {owner} while its task is still pending from a wait that was withdrawn (a choice chose another branch, or the waiting thread was stopped); yield the event (alone or in a choice) until its task completes, or use a new event.");
        }

        if (state == Abandoned)
        {
            throw new InvalidOperationException($"{DescribeCaller()} armed {owner}, whose wait by {DescribeOwner()} was abandoned when that thread's scheduler was disposed; its task may still complete and would wake the new wait, so use a new event.");
        }

        // A fault of the previous wait that nobody read is reported now: arming again loses it.
        _sentinel?.Report();
        _sentinel = null;
        _fault = null;
        _owner = null;
    }

    /// <summary>Publishes the arming: the next yield waits for the task the event stored.</summary>
    internal void EndArm() => Volatile.Write(ref _state, Armed);

    /// <summary>
    /// Checks that the event is armed before <paramref name="thread"/>, which yielded <paramref name="owner"/>, looks
    /// at its task. A plain read: enough for a completed task, which needs no registration (see <see cref="BeginPark"/>).
    /// </summary>
    internal void CheckArmed(GreenThread thread, Event owner)
    {
        var state = Volatile.Read(ref _state);
        if (state != Armed)
        {
            throw Refusal(thread, owner, state);
        }
    }

    /// <summary>
    /// Takes the armed wait for <paramref name="thread"/> when its task had already completed: plain stores, since
    /// nothing is registered and no other thread will touch the wait. (Two threads yielding one event at once, which
    /// <see cref="BeginPark"/> refuses for a pending task, may then both read the completed task.) Yielding worker only.
    /// </summary>
    internal void TakeCompleted(GreenThread thread)
    {
        _owner = thread;
        _state = Waiting;
    }

    /// <summary>
    /// Claims the armed wait for <paramref name="thread"/>, which yielded <paramref name="owner"/> on a task that has
    /// not completed; refuses an event that is not armed, or that another thread is waiting on. The compare-and-swap
    /// makes sure only one thread registers a continuation. Yielding worker only.
    /// </summary>
    internal void BeginPark(GreenThread thread, Event owner)
    {
        var state = Interlocked.CompareExchange(ref _state, Waiting, Armed);
        if (state == Armed)
        {
            _owner = thread;
            return;
        }

        throw Refusal(thread, owner, state);
    }

    private InvalidOperationException Refusal(GreenThread thread, Event owner, int state) => new(state switch
        {
            Waiting => $"{thread} yielded {owner} while {DescribeOwner()} is waiting on it; a task event serves one wait at a time, so give each green thread its own.",
            Completed => $"{thread} yielded {owner} again without arming it; call For(task) before each yield (the result of the last wait stays readable until then).",
            Abandoned => $"{thread} yielded {owner}, whose wait by {DescribeOwner()} was abandoned when that thread's scheduler was disposed; use a new event.",
            _ => $"{thread} yielded {owner} without arming it; call For(task) before each yield, or use task.AsEvent().",
        });

    /// <summary>
    /// Records the thread to wake before the event registers its continuation: from then on the wait owes the thread
    /// exactly one wake-up, which <see cref="Wake"/> gives, possibly before the registration returns. An exchange, for
    /// its full fence: a stop that missed this store is seen by the look after the park (see <see cref="TryInterrupt"/>).
    /// </summary>
    internal void SetWaiter(GreenThread thread) => Interlocked.Exchange(ref _waiter, thread);

    /// <summary>Undoes <see cref="BeginPark"/> and <see cref="SetWaiter(GreenThread)"/> when the task refused to be waited for: no continuation was registered.</summary>
    internal void AbortPark()
    {
        Volatile.Write(ref _waiter, null);
        _owner = null;
        Volatile.Write(ref _state, Unarmed);
    }

    /// <summary>
    /// The task's continuation: makes the parked thread ready on its own scheduler, or fires the choice's branch,
    /// unless <see cref="Abandon"/> or a withdrawal took it. Any OS thread.
    /// </summary>
    internal void Wake()
    {
        switch (Interlocked.Exchange(ref _waiter, s_fired))
        {
            case GreenThread thread:
                thread.Scheduler.Ready(thread);
                break;
            case ChoiceTicket ticket:
                ticket.Fire();
                break;
        }
    }

    /// <summary>Gets a value indicating whether a choice left the wait registered on its task (see <see cref="Lingering"/>).</summary>
    internal readonly bool IsLingering => _state == Lingering;

    /// <summary>Gets a value indicating whether a thread or choice waits on the task now.</summary>
    internal readonly bool IsWaiting => _state == Waiting;

    /// <summary>Gets a value indicating whether the registered continuation has run, so the task has completed.</summary>
    internal bool HasFired => Volatile.Read(ref _waiter) == s_fired;

    /// <summary>Gets the thread of the current or last wait.</summary>
    internal readonly GreenThread? Owner => _owner;

    /// <summary>
    /// Starts a choice's registration of an armed wait, as <see cref="BeginPark"/> does; the event then sets the
    /// ticket with <see cref="SetWaiter(ChoiceTicket)"/> and registers its continuation, or calls <see cref="UndoPark"/>.
    /// </summary>
    internal void BeginEnlist(GreenThread thread, Event owner) => BeginPark(thread, owner);

    /// <summary>Returns a wait claimed by <see cref="BeginEnlist"/> to armed, nothing registered: its task completed meanwhile.</summary>
    internal void UndoPark() => Volatile.Write(ref _state, Armed);

    /// <summary>Records the ticket of a choice's registration before the event registers its continuation.</summary>
    internal void SetWaiter(ChoiceTicket ticket) => Volatile.Write(ref _waiter, ticket);

    /// <summary>
    /// Waits again on a lingering wait's task, for <paramref name="waiter"/> (a thread parking, or a choice's ticket):
    /// true if registered, false if the continuation has already run, so the task has completed. The waiting thread's worker.
    /// </summary>
    internal bool Rejoin(GreenThread thread, Event owner, object waiter)
    {
        if (_owner != thread)
        {
            throw new InvalidOperationException($"{thread} yielded {owner}, whose task {DescribeOwner()} still waits for after a choice; give each green thread its own task event.");
        }

        if (Interlocked.CompareExchange(ref _waiter, waiter, null) is null)
        {
            _state = Waiting;
            return true;
        }

        return false;
    }

    /// <summary>Takes a lingering wait whose continuation has run back to waiting, so the event can read its outcome.</summary>
    internal void ResumeLingering() => _state = Waiting;

    /// <summary>
    /// Withdraws a choice's registration that lost: the continuation stays registered, and the wait lingers. If the
    /// continuation ran meanwhile, its fire reached a wait that is over and did nothing. The waiting thread's worker,
    /// or the disposing thread.
    /// </summary>
    internal void WithdrawLost()
    {
        if (Volatile.Read(ref _waiter) is ChoiceTicket ticket)
        {
            Interlocked.CompareExchange(ref _waiter, null, ticket);
        }

        _state = Lingering;
    }

    /// <summary>
    /// For a stop: takes the parked <paramref name="thread"/> back from the continuation, as <see cref="Abandon"/> does;
    /// true if this call took it. Any thread, with the compare-and-swap the continuation races.
    /// </summary>
    internal bool TryInterrupt(GreenThread thread) => Interlocked.CompareExchange(ref _waiter, null, thread) == (object)thread;

    /// <summary>
    /// Finishes a wait a stop took back: the continuation stays registered and the wait lingers, as a choice's losing
    /// branch does, so the event is usable again once its task has completed. The stopped thread's worker.
    /// </summary>
    internal void CompleteInterrupt() => _state = Lingering;

    /// <summary>Checks that <paramref name="thread"/> resumes from the wait it parked on. Its worker only.</summary>
    internal void CheckResume(GreenThread thread, Event owner, bool taskCompleted)
    {
        if (_state != Waiting || _owner != thread || !taskCompleted)
        {
            throw new InvalidOperationException($"{thread} resumed from {owner} while it was {StateName(_state)}, waited on by {DescribeOwner()}, its task {(taskCompleted ? "completed" : "not completed")}: a wake-up the wait did not owe.");
        }
    }

    /// <summary>
    /// Records the outcome of the task, which the event read once (a value-task source allows one read): a fault
    /// other than a cancellation gets a sentinel that reports it if the body never reads it. The waiting thread's worker.
    /// </summary>
    internal void Complete(GreenThread thread, Exception? fault)
    {
        if (fault is not null)
        {
            _fault = ExceptionDispatchInfo.Capture(fault);
            if (fault is not OperationCanceledException)
            {
                _sentinel = new FaultSentinel(thread, fault);
                thread.Scheduler.TrackUnobserved(_sentinel);
            }
        }

        // The waiting thread reads the outcome itself, on this OS thread; another thread that reads it (a misuse the
        // reads refuse while waiting) needs the release.
        Volatile.Write(ref _state, Completed);
    }

    /// <summary>Records a successful outcome, the common case, without <see cref="Complete"/>'s checks. The waiting thread's worker.</summary>
    internal void CompleteSuccessfully() => Volatile.Write(ref _state, Completed);

    /// <summary>Checks that the outcome may be read, and rethrows the task's exception if it faulted, marking it read.</summary>
    /// <param name="owner">The event, for messages.</param>
    /// <param name="reading">What the caller did, for messages: "read the Result of".</param>
    internal void Read(Event owner, string reading)
    {
        var state = Volatile.Read(ref _state);
        if (state != Completed)
        {
            throw new InvalidOperationException(state switch
            {
                Armed => $"{DescribeCaller()} {reading} {owner} before yielding it; yield the event first, and read the result after the thread resumes.",
                Waiting => $"{DescribeCaller()} {reading} {owner} while {DescribeOwner()} is still waiting on it; read the result after that thread resumes.",
                Abandoned => $"{DescribeCaller()} {reading} {owner}, whose wait by {DescribeOwner()} was abandoned when that thread's scheduler was disposed; it has no result.",
                Lingering => $"{DescribeCaller()} {reading} {owner}, which a choice did not choose; its task has not been waited for yet, so yield the event (alone or in a choice) first.",
                _ => $"{DescribeCaller()} {reading} {owner} before any wait completed; arm it with For(task), yield it, and read the result after the thread resumes.",
            });
        }

        if (_fault is { } fault)
        {
            _sentinel?.Suppress();
            _sentinel = null;
            fault.Throw();
        }
    }

    /// <summary>
    /// Forgets <paramref name="thread"/>, parked on this wait when its scheduler was disposed. If the continuation has
    /// not run yet, it will find no thread and do nothing; it stays registered, so the wait can never be reused. The
    /// disposing thread, after the workers stopped.
    /// </summary>
    /// <returns>True if the wait ended here, so the event may drop its task.</returns>
    internal bool Abandon(GreenThread thread)
    {
        if (_state != Waiting || _owner != thread)
        {
            return false;
        }

        _state = Interlocked.CompareExchange(ref _waiter, null, thread) == (object)thread ? Abandoned : Unarmed;
        return true;
    }

    /// <summary>Describes the state for <c>ToString</c>.</summary>
    internal string Describe() => _state == Waiting ? $"waited on by {DescribeOwner()}" : StateName(_state);

    private static string StateName(int state) => state switch
    {
        Armed => "armed",
        Waiting => "waiting",
        Completed => "completed",
        Abandoned => "abandoned",
        Lingering => "left pending by a choice",
        _ => "unarmed",
    };

    /// <summary>Names the code calling a member: the green thread the calling worker runs, or plain code.</summary>
    private static string DescribeCaller() => OsThreadContext.Current.Worker is { } worker ? worker.RunningDescription : "Code outside any green thread";

    private string DescribeOwner() => Volatile.Read(ref _owner)?.ToString() ?? "another green thread";
}
