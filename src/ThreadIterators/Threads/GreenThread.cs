using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.ExceptionServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A green thread: an iterator body that a <see cref="Scheduler"/> steps on its workers. Returned by
/// <see cref="Scheduler.Spawn"/>; use it to join the thread from another green thread (yield <see cref="Exited"/>,
/// or <see cref="Ended"/> to read its <see cref="Outcome"/> instead of ending with its fault) or from plain code
/// (<see cref="Wait()"/>, <c>await thread.AsTask()</c>). Inside a body, <see cref="Current"/> is the thread's own.
/// </summary>
/// <remarks>
/// <para>
/// The members of this type may be used from any thread. The body itself only ever runs on one worker at a time.
/// </para>
/// <para>
/// An exception thrown by the body ends the thread; joining it rethrows that exception with its original stack
/// trace. A fault that nothing was waiting for when the thread ended is reported through
/// <see cref="Scheduler.UnobservedFault"/>. <see cref="Stop"/> ends a thread from outside, at its next wait.
/// </para>
/// </remarks>
[DebuggerDisplay("{DebuggerDisplay,nq}")]
public sealed partial class GreenThread
{
    /// <summary>Stands in <see cref="_exit"/> for a thread that ended successfully before anything asked for <see cref="Exited"/>.</summary>
    private static readonly object s_exitedQuietly = new();

    /// <summary>The <see cref="Home"/> of a thread that has none yet; above any worker index (at most 1024).</summary>
    internal const int Homeless = 0x3FFF;

    /// <summary>Bits of <see cref="_idAndHome"/> that hold the id: room for 2^48 spawns; the home's 14 bits and the weight bit lie above.</summary>
    private const int IdBits = 48;

    private const long IdMask = (1L << IdBits) - 1;

    private const long HomeMask = (long)Homeless << IdBits;

    private const long HeavyBit = 1L << 62;

    /// <summary>The body; null once the thread has ended. Touched only by the worker running the thread, or by disposal.</summary>
    private IEnumerator<Event>? _body;

    /// <summary>See <see cref="WaitingOn"/>; read by a stop from any thread.</summary>
    private Event? _waitingOn;

    /// <summary>See <see cref="PendingFault"/>; set by a stop from any thread, with a compare-and-swap.</summary>
    private ExceptionDispatchInfo? _pendingFault;

    /// <summary>
    /// Null while running and unobserved, <see cref="s_exitedQuietly"/>, or the thread's <see cref="ExitEvent"/> (its
    /// join event, whose base <see cref="ThreadEnd"/> keeps the rest of its end); or, while the thread lives and
    /// nothing has asked for its exit event, the one mailbox it receives from (an <see cref="IReceiverEndHandler"/>),
    /// so that a thread with a mailbox of its own pays no memory to have it told of its end.
    /// </summary>
    private object? _exit;

    /// <summary>
    /// The id in the low <see cref="IdBits"/> bits, the home worker's index and the weight bit above them. Packed
    /// into one word so they cost no memory: a 4-byte field would grow every thread from 88 to 96 bytes.
    /// </summary>
    /// <remarks>
    /// Only the home and weight are ever written, by the worker running the thread before it parks, or (for a
    /// homeless thread) by the worker that wakes it. Other OS threads read them as hints; a torn read on a 32-bit
    /// platform cannot change the id bits.
    /// </remarks>
    private long _idAndHome;

    /// <summary>
    /// The name, or, once the thread has kept an activity of its own across a wait (Tracing.cs), a
    /// <see cref="ThreadActivity"/> holding the name and that activity: one field for both, so that a thread never
    /// traced pays no memory for tracing (a field of its own grew every thread from 88 to 96 bytes, and the parked
    /// thread's footprint from 10.3x to 10.05x below Erlang's, against a target of 10x).
    /// </summary>
    private object? _nameOrActivity;

    internal GreenThread(Scheduler scheduler, IEnumerator<Event> body, long id, int home, string? name)
    {
        Scheduler = scheduler;
        _body = body;
        _idAndHome = id | ((long)home << IdBits);
        _nameOrActivity = name;
    }

    /// <summary>
    /// Gets the green thread whose body is running on the calling OS thread, or null when called outside any green
    /// thread (plain code, the thread pool, a timer's callback).
    /// </summary>
    /// <remarks>
    /// <para>
    /// Inside a body it is the handle <see cref="Scheduler.Spawn"/> returned: the same object however many times the
    /// thread parks and whichever worker runs it next, so a body may read it once and keep it. Code called from a
    /// body sees it too, and so do the <c>finally</c> blocks that the scheduler's disposal runs on the disposing OS
    /// thread.
    /// </para>
    /// <para>
    /// What it costs: a worker keeps only the id of the thread it runs, so that the message hop pays nothing for
    /// this property. A read therefore searches the scheduler's live threads for that id: a binary search of each
    /// worker's list of the threads it spawned, which is in id order, under that list's lock, and a walk of the
    /// threads spawned off the workers. The OS thread remembers the thread it found last, so a thread that reads it
    /// again, with no other thread reading it on that OS thread in between, gets it in a few nanoseconds. Where it is
    /// needed often, read it once at the top of the body and keep it.
    /// </para>
    /// <example>
    /// A body that spawns a helper on its own scheduler and names itself in its log, without being handed either:
    /// <code>
    /// static IEnumerable&lt;Event&gt; Parent()
    /// {
    ///     var self = GreenThread.Current!;
    ///     var helper = self.Scheduler.Spawn(Helper(), "helper");
    ///     yield return helper.Exited;
    ///     Console.WriteLine($"{self} joined {helper}");
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    public static GreenThread? Current => OsThreadContext.Existing?.CurrentThread;

    /// <summary>Gets the scheduler that runs this thread.</summary>
    public Scheduler Scheduler { get; }

    /// <summary>Gets a number that identifies this thread within its scheduler; the first thread spawned is 1.</summary>
    public long Id => _idAndHome & IdMask;

    /// <summary>Gets the name given at spawn, if any.</summary>
    public string? Name => Volatile.Read(ref _nameOrActivity) switch
    {
        ThreadActivity kept => kept.Name,
        var name => (string?)name,
    };

    /// <summary>
    /// Gets or sets the thread's <see cref="System.Diagnostics.Activity.Current"/> between its turns, kept and restored
    /// by the worker (the steps in Tracing.cs); null outside any trace. Set only by the worker running the thread, or
    /// by its end; the first activity it keeps makes its <see cref="ThreadActivity"/>.
    /// </summary>
    internal System.Diagnostics.Activity? Activity
    {
        get => (_nameOrActivity as ThreadActivity)?.Current;
        set
        {
            if (value is not null || _nameOrActivity is ThreadActivity)
            {
                Kept().Current = value;
            }
        }
    }

    /// <summary>
    /// Gets or sets the receive span the thread has open (Tracing.cs), which it stops by reference: a body's own
    /// activity around its receive may have made another current since. Same threads as <see cref="Activity"/>.
    /// </summary>
    internal System.Diagnostics.Activity? OpenReceive
    {
        get => (_nameOrActivity as ThreadActivity)?.OpenReceive;
        set
        {
            if (value is not null || _nameOrActivity is ThreadActivity)
            {
                Kept().OpenReceive = value;
            }
        }
    }

    /// <summary>The thread's <see cref="ThreadActivity"/>, made the first time it is needed.</summary>
    private ThreadActivity Kept()
    {
        if (_nameOrActivity is ThreadActivity kept)
        {
            return kept;
        }

        // Published whole: another OS thread reading the name finds the string or the holder, never half of it.
        var made = new ThreadActivity((string?)_nameOrActivity);
        Volatile.Write(ref _nameOrActivity, made);
        return made;
    }

    /// <summary>
    /// Gets the event that completes when this thread ends. A green thread yields it to join this one; if this thread
    /// faulted, the joining thread ends with the same exception, just as an exception thrown at that point would end it.
    /// </summary>
    /// <remarks>
    /// Several threads may join the same thread. A thread cannot join itself or a thread of another scheduler. A join
    /// that closes a cycle of joins (A joins B, which joins A) fails at once: the thread that closes it ends with an
    /// <see cref="InvalidOperationException"/> naming the cycle, which the others get through their joins. To go on
    /// running whatever the outcome, yield <see cref="Ended"/> instead.
    /// </remarks>
    public Event Exited => GetExitEvent();

    /// <summary>
    /// Gets the event that completes when this thread ends, however it ends: unlike <see cref="Exited"/>, a fault
    /// is not rethrown into the joining thread, which resumes and reads <see cref="Outcome"/> and
    /// <see cref="Exception"/>. What a supervisor yields for the threads it watches.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Yielding it counts as observing the fault, as yielding <see cref="Exited"/> does: a supervisor takes
    /// responsibility for it, and it is not reported through <see cref="Scheduler.UnobservedFault"/>. Several threads
    /// may join the same thread, through either event. A thread cannot join itself or a thread of another
    /// scheduler (the joining thread is faulted), nor close a cycle of joins (as with <see cref="Exited"/>). A joiner parked on it when the scheduler is disposed is disposed
    /// with the rest. The same object every time.
    /// </para>
    /// <example>
    /// A supervisor that restarts its worker until the worker ends without a fault:
    /// <code>
    /// static IEnumerable&lt;Event&gt; Supervise(Func&lt;IEnumerable&lt;Event&gt;&gt; work)
    /// {
    ///     var scheduler = GreenThread.Current!.Scheduler;
    ///     while (true)
    ///     {
    ///         var child = scheduler.Spawn(work(), "worker");
    ///         yield return child.Ended;               // Resumes however the child ended.
    ///         if (child.Outcome != ThreadOutcome.Faulted)
    ///         {
    ///             yield break;
    ///         }
    ///
    ///         Console.WriteLine($"{child} failed ({child.Exception!.Message}); restarting it");
    ///     }
    /// }
    /// </code>
    /// </example>
    /// </remarks>
    public Event Ended => GetExitEvent().Ended;

    /// <summary>
    /// Gets how the thread ended: <see cref="ThreadOutcome.Running"/> until it has, then
    /// <see cref="ThreadOutcome.Completed"/>, <see cref="ThreadOutcome.Faulted"/> or
    /// <see cref="ThreadOutcome.Canceled"/> (an <see cref="OperationCanceledException"/> ended it, as <see cref="Stop"/>
    /// does, and its scheduler's disposal does to a parked thread). Never blocks.
    /// </summary>
    /// <remarks>
    /// Reading the outcome of a thread that faulted counts as observing the fault, as reading <see cref="Exception"/>
    /// does: it is then not reported through <see cref="Scheduler.UnobservedFault"/>. Reading it while the thread
    /// runs observes nothing.
    /// </remarks>
    public ThreadOutcome Outcome
    {
        get
        {
            var exit = Volatile.Read(ref _exit);
            if (exit == s_exitedQuietly)
            {
                return ThreadOutcome.Completed;
            }

            return exit is ExitEvent e ? e.GetOutcome() : ThreadOutcome.Running;
        }
    }

    /// <summary>Gets a value indicating whether the thread has ended, successfully or not.</summary>
    public bool IsCompleted
    {
        get
        {
            var exit = Volatile.Read(ref _exit);
            return exit == s_exitedQuietly || (exit is ExitEvent e && e.IsCompleted);
        }
    }

    /// <summary>
    /// Gets the exception that ended the thread, or null if it has not ended or ended successfully. Reading it
    /// counts as observing the fault.
    /// </summary>
    public Exception? Exception => Volatile.Read(ref _exit) is ExitEvent e ? e.GetException() : null;

    /// <summary>
    /// Gets or sets the index of the thread's home worker, where the scheduling policy queues it when it is woken
    /// (see <see cref="SchedulingPolicy"/>). Set by the worker running the thread.
    /// </summary>
    internal int Home
    {
        get => (int)((_idAndHome & HomeMask) >>> IdBits);
        set => _idAndHome = (_idAndHome & ~HomeMask) | ((long)value << IdBits);
    }

    /// <summary>
    /// Gets or sets a value indicating whether the thread's last measured step took long enough that its own state,
    /// not the message, is what it works on, so the soft-affinity policy sends it home rather than after the message.
    /// </summary>
    internal bool IsHeavy
    {
        get => (_idAndHome & HeavyBit) != 0;
        set => _idAndHome = value ? _idAndHome | HeavyBit : _idAndHome & ~HeavyBit;
    }

    /// <summary>
    /// Gets or sets the event the thread yielded last; read again when the thread is resumed. Set by the running
    /// worker, and by a stop that took the thread's wake-up (<see cref="InterruptWait"/>); a stop reads it from any thread.
    /// </summary>
    internal Event? WaitingOn
    {
        get => _waitingOn;
        set => _waitingOn = value;
    }

    /// <summary>
    /// Gets or sets a fault an event imposed on the thread (see <see cref="EventOutcome.Faulted"/>), set by the running
    /// worker; or the stop <see cref="Stop"/> asked for, set from any thread while no event has set one. Non-null
    /// while the thread is parked or running, it is a stop: the worker looks at it after each yield.
    /// </summary>
    internal ExceptionDispatchInfo? PendingFault
    {
        get => _pendingFault;
        set => _pendingFault = value;
    }

    /// <summary>Gets the body; null once the thread has ended. Running worker only.</summary>
    internal IEnumerator<Event>? Body => _body;

    /// <summary>
    /// Gets the thread's call stack, putting it in place of the body at its first sub-body call (CallStack.cs). The
    /// body, on its running worker, only.
    /// </summary>
    internal CallStack CallStack => _body as CallStack ?? CallStack.Install(this, _body!);

    /// <summary>Puts the call stack in place of the body (<see cref="CallStack.Install"/>).</summary>
    internal void CallThrough(CallStack stack) => _body = stack;

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"GreenThread #{Id}" : $"GreenThread #{Id} '{Name}'";

    /// <summary>
    /// Gets what the debugger shows: the thread, its scheduler, and how it ended, with the exception's type and message.
    /// Reads the end without observing a fault, so inspecting a thread never changes what is reported.
    /// </summary>
    internal string DebuggerDisplay
    {
        get
        {
            var exit = Volatile.Read(ref _exit);
            var (outcome, exception) = exit == s_exitedQuietly ? (ThreadOutcome.Completed, null)
                : exit is ExitEvent e ? e.Peek()
                : (ThreadOutcome.Running, null);
            return $"{this} of {Scheduler}: {outcome}{(exception is null ? string.Empty : $" ({exception.GetType().Name}: {exception.Message})")}";
        }
    }

    /// <summary>
    /// Remembers a mailbox this thread has become the receiver of, to tell it of the thread's end. The thread's own
    /// worker, while it runs the thread, or its spawner before it is placed (<see cref="Scheduler.SpawnReceiver{T}"/>); once per mailbox.
    /// </summary>
    internal void AddReceived(IReceiverEndHandler mailbox)
    {
        while (true)
        {
            var exit = Volatile.Read(ref _exit);
            if (exit is ExitEvent existing)
            {
                existing.AddReceived(mailbox);
                return;
            }

            if (exit is null)
            {
                if (Interlocked.CompareExchange(ref _exit, mailbox, null) is null)
                {
                    return;
                }

                continue;
            }

            // A second mailbox: the exit event keeps them all.
            var created = new ExitEvent(this, (IReceiverEndHandler)exit);
            if (Interlocked.CompareExchange(ref _exit, created, exit) == exit)
            {
                created.AddReceived(mailbox);
                return;
            }
        }
    }

    /// <summary>
    /// Marks the thread ended: tells the mailboxes it received from, publishes the outcome and wakes every joiner. The
    /// ending worker only (or the disposing thread), once.
    /// </summary>
    /// <param name="fault">The exception that ended the thread, or null.</param>
    /// <param name="report">Whether a fault nothing ever observes must be reported.</param>
    internal void Complete(ExceptionDispatchInfo? fault, bool report)
    {
        _body = null;

        // Before the end is published: a thread that would take a mailbox over once its receiver has ended then
        // finds the mailbox already handed to the dead letters.
        var exit = Volatile.Read(ref _exit);
        if (exit is IReceiverEndHandler received)
        {
            received.ReceiverEnded(this);
        }
        else if (exit is ExitEvent withReceived)
        {
            withReceived.TellReceived();
        }

        while (true)
        {
            exit = Volatile.Read(ref _exit);
            if (exit is ExitEvent existing)
            {
                existing.Complete(fault, report);
                return;
            }

            if (fault is null)
            {
                if (Interlocked.CompareExchange(ref _exit, s_exitedQuietly, exit) == exit)
                {
                    return;
                }

                continue;
            }

            var created = new ExitEvent(this);
            if (Interlocked.CompareExchange(ref _exit, created, exit) == exit)
            {
                created.Complete(fault, report);
                return;
            }
        }
    }

}
