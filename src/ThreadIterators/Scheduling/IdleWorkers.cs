using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A scheduler's idle workers: the ones parked with nothing to do, and the one (at most) spinning in search of work.
/// Wakers use it to decide whether anybody must be woken for work they just published, and whom.
/// </summary>
/// <remarks>
/// <para>
/// The protocol, in the manner of Go's <c>proc.go</c>. A worker that runs out of work (<c>Worker.Idle</c>):
/// </para>
/// <list type="number">
/// <item>Spins for a while if no other worker spins (<see cref="TryBeginSpinning"/>), looking at every queue it may
/// take from. A spinner that finds work stops spinning and, if more work is visible, wakes another worker, as Go's
/// <c>resetspinning</c> does, so a burst of work gets a second worker.</item>
/// <item>Resets its park signal.</item>
/// <item>Lists itself here (<see cref="List"/>: a lock and an interlocked increment, so a full fence).</item>
/// <item>Looks at every queue once more; if it finds a thread, unlists itself (<see cref="Unlist"/>) and runs it.</item>
/// <item>Waits on its signal.</item>
/// </list>
/// <para>A waker, on any OS thread:</para>
/// <list type="number">
/// <item>Publishes the thread in a queue.</item>
/// <item>Passes a full fence (the publishing interlocked operation, or an explicit barrier).</item>
/// <item>If a worker spins, stops: the spinner finds the thread, at the latest in its last look (step 4 above).</item>
/// <item>Otherwise, if any worker is listed, unlists one (<see cref="TakeOne"/>), or the worker the thread was queued
/// for (<see cref="Unlist"/>), under the lock.</item>
/// <item>Sets that worker's signal.</item>
/// </list>
/// <para>
/// No wake-up is lost: the parker lists itself before its last look, the waker publishes before it reads the count,
/// and each passes a full fence in between, so either the parker's last look sees the thread or the waker sees the
/// parker listed. A worker woken late, after it found work itself, may be listed and unlisted again; it is listed once.
/// </para>
/// <para>
/// Any thread. The list is guarded by its own lock, which nothing else takes; the count and the spinning flag are
/// read without it on the wake path.
/// </para>
/// </remarks>
internal sealed class IdleWorkers
{
    /// <summary>Parked workers that no waker has claimed yet. Guarded by locking the list.</summary>
    private readonly List<Worker> _listed;

    /// <summary>Number of workers in <see cref="_listed"/>; read without the lock on the wake path.</summary>
    private int _count;

    /// <summary>Number of workers spinning in search of work (0 or 1); while one spins, nobody needs waking.</summary>
    private int _spinning;

    /// <summary>The scheduler's number of workers.</summary>
    private readonly int _workerCount;

    internal IdleWorkers(int workerCount)
    {
        _listed = new List<Worker>(workerCount);
        _workerCount = workerCount;
    }

    /// <summary>
    /// Gets or sets the watchdog, which sleeps while every worker is listed and must hear when one is unlisted. Set
    /// once, by the scheduler's constructor.
    /// </summary>
    internal Watchdog? Watchdog { get; set; }

    /// <summary>Gets a value indicating whether every worker is listed idle; read without the lock, by the watchdog.</summary>
    internal bool AllListed => Volatile.Read(ref _count) == _workerCount;

    /// <summary>Gets a value indicating whether a waker may have to wake a worker: none spins and one is listed.</summary>
    internal bool AnyToWake => Volatile.Read(ref _spinning) == 0 && Volatile.Read(ref _count) != 0;

    /// <summary>Lets at most one worker spin for work at a time: true if the caller may spin.</summary>
    internal bool TryBeginSpinning() => Volatile.Read(ref _spinning) == 0 && Interlocked.CompareExchange(ref _spinning, 1, 0) == 0;

    /// <summary>Ends the caller's spinning (a full fence).</summary>
    internal void EndSpinning() => Interlocked.Exchange(ref _spinning, 0);

    /// <summary>Lists a worker about to park (step 3); a worker still listed from a late wake-up is listed once.</summary>
    internal void List(Worker worker)
    {
        lock (_listed)
        {
            if (!_listed.Contains(worker))
            {
                _listed.Add(worker);
                worker.IsListedIdle = true;
                Interlocked.Increment(ref _count);
            }

            AssertInvariants();
        }
    }

    /// <summary>Unlists <paramref name="worker"/> if it is listed: it found work itself, or a waker queued a thread for it.</summary>
    internal void Unlist(Worker worker)
    {
        lock (_listed)
        {
            var index = _listed.IndexOf(worker);
            if (index >= 0)
            {
                RemoveAt(index);
            }
        }
    }

    /// <summary>Unlists the worker listed last, if any, for a waker to wake; null if none is listed.</summary>
    internal Worker? TakeOne()
    {
        lock (_listed)
        {
            return _listed.Count == 0 ? null : RemoveAt(_listed.Count - 1);
        }
    }

    /// <summary>The one removal from the list. Under the lock.</summary>
    private Worker RemoveAt(int index)
    {
        Debug.Assert(Monitor.IsEntered(_listed), "A worker is taken off the idle list without the list's lock.");
        var worker = _listed[index];
        _listed.RemoveAt(index);
        worker.IsListedIdle = false;

        // A full fence, before the watchdog's flag is read (see Watchdog.Nudge).
        Interlocked.Decrement(ref _count);
        AssertInvariants();
        Watchdog?.Nudge();
        return worker;
    }

    /// <summary>Checks, under the lock, that the count matches the list and that no worker is listed twice.</summary>
    [Conditional("DEBUG")]
    private void AssertInvariants()
    {
        Debug.Assert(Monitor.IsEntered(_listed), "The idle list is read without its lock.");
        Debug.Assert(Volatile.Read(ref _count) == _listed.Count, $"The idle count is {Volatile.Read(ref _count)} but {_listed.Count} workers are listed.");
        for (var i = 0; i < _listed.Count; i++)
        {
            Debug.Assert(_listed[i].IsListedIdle, $"Worker {_listed[i].Index} is listed idle but does not know it.");
            Debug.Assert(_listed.IndexOf(_listed[i]) == i, $"Worker {_listed[i].Index} is listed idle twice.");
        }
    }
}
