using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

// The credit protocol. Any thread releases; green threads acquire, on their own workers; the queue of waiting
// acquirers, the credits owed and the choices watching are under the queue's lock.
// An acquirer (CreditEvent.Park, AcquireOrQueue):
//   1. One interlocked decrement. At zero or above, a credit was there: go on without parking. Below zero, the count is
//      the number of acquirers that must wait.
//   2. Such an acquirer takes the queue's lock. A credit owed to it (a release that counted it before it queued) is
//      taken instead of parking; otherwise it joins the queue and parks.
// A release (Release):
//   3. One interlocked add of its credits. More than the window throws, naming the window (the add is undone). If the
//      count was below zero, hand the credits to as many counted acquirers as the release covers, oldest first, under
//      the lock (WakeWaiting): a queued one is made ready alongside the releaser, which goes on running; one counted
//      but not queued yet is owed a credit; a credit that reaches the place of an acquirer that left (stopped, or
//      disposed: Withdraw) goes back to the window, so a waiter that leaves takes no credit and the count stays exact.
//   4. After the add (a full fence), fire every choice watching for a credit. Watchers reserve nothing: each tries
//      TryAcquire once chosen, so a choice that loses holds no credit.

/// <summary>
/// Flow control by credits: a producer keeps at most <see cref="Window"/> messages unacknowledged, so an unbounded
/// mailbox between it and its consumers never holds more than that. The producer yields <see cref="Acquire"/>
/// before each send; a consumer calls <see cref="Release"/> for each message it has handled (or once for several).
/// </summary>
/// <remarks>
/// <para>
/// This is the credit protocol of actor systems (a consumer sends "processed" back; the producer sends one more
/// message per acknowledgement) without the acknowledgement messages: the credits are a counter the consumers
/// increment. An acquire that finds a credit costs one interlocked decrement and does not park; a release costs one
/// interlocked add, plus a lock only when a producer is waiting.
/// </para>
/// <para>
/// <see cref="Release"/> may be called from any thread. Releasing more credits than were acquired throws, naming
/// the window: it would let the producer run ahead of the consumers without bound.
/// </para>
/// <example>
/// <code>
/// var credits = new CreditWindow(100, "pages");
///
/// static IEnumerable&lt;Event&gt; Produce(CreditWindow credits, Mailbox&lt;Page&gt; consumer, IEnumerable&lt;Page&gt; pages)
/// {
///     foreach (var page in pages)
///     {
///         yield return credits.Acquire();   // parks while 100 pages are unacknowledged
///         consumer.Send(page);
///     }
/// }
///
/// // In the consumer, after handling a page:
/// credits.Release();
/// </code>
/// </example>
/// </remarks>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class CreditWindow
{
    /// <summary>Credits left; below zero, the number of acquirers that must wait.</summary>
    private int _credits;

    /// <summary>Green threads parked in <see cref="Acquire"/>, oldest first. Under its own lock.</summary>
    private readonly Queue<GreenThread> _waiting = new();

    /// <summary>Credits released to waiters that had counted themselves but not yet queued; under the queue's lock.</summary>
    private int _owed;

    /// <summary>
    /// Acquirers that counted themselves in <see cref="_credits"/> and then left the queue before a release reached
    /// them (stopped, or disposed with their scheduler). Their count stays; the release that reaches one gives its
    /// credit back, so a waiter that leaves takes no credit, and the count stays exact. Under the queue's lock.
    /// </summary>
    private int _withdrawn;

    /// <summary>
    /// Choices waiting for a credit, with the wait each registered for. They reserve nothing: a release fires them
    /// all and each then tries to take a credit, so a choice that loses holds none. Under the lock of <see cref="_waiting"/>.
    /// </summary>
    private readonly List<ChoiceTicket> _watchers = [];

    /// <summary>The number of <see cref="_watchers"/>, read by releases without the lock.</summary>
    private int _watcherCount;

    /// <summary>The one acquire event, shared by every acquirer: the waiting thread goes in the queue, not in the event.</summary>
    private readonly CreditEvent _acquire;

    /// <summary>Initializes a window of <paramref name="window"/> credits, all available.</summary>
    /// <param name="window">The most messages a producer may have unacknowledged; at least 1.</param>
    /// <param name="name">An optional name that exceptions and the debugger show.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="window"/> is below 1.</exception>
    public CreditWindow(int window, string? name = null)
    {
        Name = name;
        if (window < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(window), window, $"A credit window{(name is null ? string.Empty : $" '{name}'")} must hold at least 1 credit.");
        }

        Window = window;
        _credits = window;
        _acquire = new CreditEvent(this);
    }

    /// <summary>Gets the number of credits the window started with.</summary>
    public int Window { get; }

    /// <summary>Gets the name given at construction, if any.</summary>
    public string? Name { get; }

    /// <summary>Gets the credits available now; a snapshot.</summary>
    public int Available => Math.Max(0, Volatile.Read(ref _credits));

    /// <summary>
    /// Gets the event a green thread yields to take a credit: it completes at once if one is available and
    /// otherwise parks the thread until a consumer releases one.
    /// </summary>
    /// <returns>This window's acquire event; the same object every time.</returns>
    public Event Acquire() => _acquire;

    /// <summary>Takes a credit if one is available, without waiting. Any thread.</summary>
    /// <returns>True if a credit was taken.</returns>
    public bool TryAcquire()
    {
        var credits = Volatile.Read(ref _credits);
        while (credits > 0)
        {
            var seen = Interlocked.CompareExchange(ref _credits, credits - 1, credits);
            if (seen == credits)
            {
                return true;
            }

            credits = seen;
        }

        return false;
    }

    /// <summary>Gives back <paramref name="count"/> credits (acknowledges that many messages), waking waiting producers. Any thread.</summary>
    /// <param name="count">The number of credits; at least 1.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is below 1.</exception>
    /// <exception cref="InvalidOperationException">More credits would be available than <see cref="Window"/>.</exception>
    public void Release(int count = 1)
    {
        if (count < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(count), count, $"Release() on {this} gives back at least 1 credit.");
        }

        var after = Interlocked.Add(ref _credits, count);
        if (after > Window)
        {
            Interlocked.Add(ref _credits, -count);
            throw new InvalidOperationException(
                $"{this} was released {count} credit(s) with {after - count} already available, more than its window of {Window}: a message was acknowledged twice, or acknowledged without being acquired.");
        }

        var before = after - count;
        if (before < 0 && WakeWaiting(Math.Min(count, -before)) is var returned and > 0)
        {
            // Credits that reached acquirers that had left: back to the window, as if they had taken and released them.
            Release(returned);
            return;
        }

        // After the add, a full fence: a choice that registered before it looked at the credits is seen here.
        if (Volatile.Read(ref _watcherCount) != 0)
        {
            FireWatchers();
        }
    }

    /// <inheritdoc/>
    public override string ToString() => Name is null ? $"CreditWindow({Window})" : $"CreditWindow({Window}) '{Name}'";

    /// <summary>Takes a credit for a green thread, or queues it: true if it got one and goes on, false if it is parked.</summary>
    internal bool AcquireOrQueue(GreenThread thread)
    {
        if (Interlocked.Decrement(ref _credits) >= 0)
        {
            return true;
        }

        lock (_waiting)
        {
            // A release may have counted this acquirer among the waiting before it got here.
            if (_owed > 0)
            {
                _owed--;
                return true;
            }

            _waiting.Enqueue(thread);
            return false;
        }
    }

    /// <summary>
    /// Takes a parked thread out of the queue: its scheduler was disposed (the disposing thread), or it is being
    /// stopped (any thread). True if it was queued, so no release had reached it: it took no credit, and the credit a
    /// release brings to its place goes back to the window. False if a release has already dequeued it and made it ready.
    /// </summary>
    internal bool Withdraw(GreenThread thread)
    {
        lock (_waiting)
        {
            var found = false;
            var count = _waiting.Count;
            for (var i = 0; i < count; i++)
            {
                var waiting = _waiting.Dequeue();
                if (waiting == thread && !found)
                {
                    found = true;
                }
                else
                {
                    _waiting.Enqueue(waiting);
                }
            }

            if (found)
            {
                _withdrawn++;
            }

            return found;
        }
    }

    /// <summary>
    /// Registers a choice's branch to be fired by the next release; false, registering nothing, if a credit is
    /// available now. The worker running the choosing thread.
    /// </summary>
    internal bool Watch(ChoiceBranch branch, long generation)
    {
        lock (_waiting)
        {
            _watchers.Add(new ChoiceTicket(branch, generation));
            Volatile.Write(ref _watcherCount, _watchers.Count);
        }

        // Store-load fence between the registration and the look at the credits; a release adds, then looks at the count.
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _credits) > 0)
        {
            Unwatch(branch);
            return false;
        }

        return true;
    }

    /// <summary>Removes a choice's branch registered by <see cref="Watch"/>, if a release has not fired it yet.</summary>
    internal void Unwatch(ChoiceBranch branch)
    {
        lock (_waiting)
        {
            _watchers.RemoveAll(ticket => ticket.Branch == branch);
            Volatile.Write(ref _watcherCount, _watchers.Count);
        }
    }

    private void FireWatchers()
    {
        ChoiceTicket[] fired;
        lock (_waiting)
        {
            fired = [.. _watchers];
            _watchers.Clear();
            Volatile.Write(ref _watcherCount, 0);
        }

        foreach (var ticket in fired)
        {
            ticket.Fire(alongside: true);
        }
    }

    /// <summary>Hands <paramref name="count"/> released credits to counted acquirers, oldest first; returns how many reached acquirers that had left.</summary>
    private int WakeWaiting(int count)
    {
        var returned = 0;
        lock (_waiting)
        {
            for (var i = 0; i < count; i++)
            {
                if (_waiting.TryDequeue(out var thread))
                {
                    // The releasing consumer goes on running: queue the producer where an idle worker can take it.
                    thread.Scheduler.ReadyAlongside(thread);
                }
                else if (_withdrawn > 0)
                {
                    _withdrawn--;
                    returned++;
                }
                else
                {
                    _owed++;
                }
            }
        }

        return returned;
    }
}
