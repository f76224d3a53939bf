using System;
using System.Runtime.CompilerServices;

namespace ThreadIterators;

/// <summary>
/// What the hot path needs to know about the calling OS thread: the worker it is, if any. Looked up once per send
/// and handed to the wake-up, so a send that wakes its receiver reads the thread static once.
/// </summary>
/// <remarks>Only the owning OS thread touches an instance.</remarks>
internal sealed class OsThreadContext
{
    /// <summary>The calling thread's context, once it has one.</summary>
    [ThreadStatic]
    private static OsThreadContext? t_current;

    /// <summary>
    /// The thread <see cref="CurrentThread"/> found last. It may have ended since; it is then kept from the garbage
    /// collector until another is found, and a fault of it that nothing observed is reported at disposal rather than
    /// by its finalizer.
    /// </summary>
    private GreenThread? _lastFound;

    /// <summary>The meter's counts of this OS thread if it is no worker (a worker counts in <see cref="Worker.Counters"/>).</summary>
    private readonly OutsideCounters? _outside;

    internal OsThreadContext(Worker? worker)
    {
        Worker = worker;
        _outside = worker is null ? OutsideCounters.Register() : null;
    }

    /// <summary>Gets the calling OS thread's context, creating it on first use.</summary>
    internal static OsThreadContext Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current ?? CreateCurrent();
    }

    /// <summary>Gets the calling OS thread's context if it has one, without creating it: null on a thread that never sent, spawned or received.</summary>
    internal static OsThreadContext? Existing => t_current;

    /// <summary>Gets the worker this OS thread is, or null.</summary>
    internal Worker? Worker { get; }

    /// <summary>Gets the worker this OS thread is if it is one of <paramref name="scheduler"/>'s, else null.</summary>
    internal Worker? WorkerOf(Scheduler scheduler) => Worker is { } worker && worker.Scheduler == scheduler ? worker : null;

    /// <summary>
    /// Gets or sets the green thread whose <c>finally</c> blocks this OS thread is running for its scheduler's
    /// disposal, so <see cref="GreenThread.Current"/> names it there too: the disposing thread is not its worker,
    /// and may be a worker of another scheduler, running a green thread of its own.
    /// </summary>
    internal GreenThread? Stopping { get; set; }

    /// <summary>
    /// Gets the green thread whose code runs on this OS thread: <see cref="GreenThread.Current"/>. The owning OS
    /// thread.
    /// </summary>
    /// <remarks>
    /// A worker keeps the running thread's id, not a reference (<see cref="Worker.RunningId"/>), so this searches the
    /// registry by id (<see cref="ThreadRegistry.Find"/>), unless the thread is the one found last: ids are unique, so
    /// a thread with the running id is the running thread. Nothing in the turn loop keeps a reference for this: even
    /// a test and a store there, for threads that had read it, showed on the hop (docs/history.md, "Designs measured and
    /// rejected").
    /// </remarks>
    internal GreenThread? CurrentThread
    {
        get
        {
            if (Stopping is { } stopping)
            {
                return stopping;
            }

            var id = Worker?.RunningId ?? 0;
            if (id == 0)
            {
                return null;
            }

            if (_lastFound is { } last && last.Id == id)
            {
                return last;
            }

            var found = Worker!.Scheduler.FindLive(id);
            if (found is not null)
            {
                _lastFound = found;
            }

            return found;
        }
    }

    /// <summary>
    /// Counts a send as it starts: on this worker (<see cref="Worker.CountSend"/>, which the long-turn rule needs
    /// anyway), or outside any (<see cref="OutsideCounters"/>). A refused send is taken back (<see cref="UncountSend"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void CountSend()
    {
        if (Worker is { } worker)
        {
            worker.CountSend();
        }
        else
        {
            _outside!.Sent++;
        }
    }

    /// <summary>Takes back the count of a send the mailbox refused. Off the hop path.</summary>
    internal void UncountSend()
    {
        if (Worker is { } worker)
        {
            worker.UncountSend();
        }
        else
        {
            _outside!.Sent--;
        }
    }

    /// <summary>
    /// Counts a send waking a choice's mailbox branch or an async reader, which resume through other events: on this
    /// worker, or outside any. A plain, timed or shared receive counts its own wake-up where it resumes.
    /// </summary>
    internal void CountWakeUp()
    {
        if (Worker is { } worker)
        {
            worker.Counters.WakeUps++;
        }
        else
        {
            _outside!.WakeUps++;
        }
    }

    /// <summary>Counts a receive that parked on an empty mailbox: on this worker, or outside any (an async reader).</summary>
    internal void CountMailboxWait()
    {
        if (Worker is { } worker)
        {
            worker.Counters.MailboxWaits++;
        }
        else
        {
            _outside!.MailboxWaits++;
        }
    }

    /// <summary>Makes <paramref name="context"/> the calling thread's context; a worker does this when it starts.</summary>
    internal static void SetCurrent(OsThreadContext? context) => t_current = context;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static OsThreadContext CreateCurrent() => t_current = new OsThreadContext(null);
}
