using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A scheduler's pending deadlines (<see cref="TimerEntry"/>), all in the time of its <see cref="TimeProvider"/>, and
/// what fires them when they fall due. One per scheduler (<see cref="Scheduler.Timers"/>).
/// </summary>
/// <remarks>
/// <para>
/// <b>Threads.</b> <see cref="Schedule"/>, <see cref="Cancel"/>, <see cref="Now"/> and <see cref="DeadlineAfter"/>:
/// any thread. The heap is guarded by one lock (<see cref="_lock"/>), held for a sift and no more; entries fire in
/// batches taken under the lock and fired outside it, by one thread at a time (the firer). With
/// <see cref="TimeProvider.System"/> the firer is the queue's own OS thread, started by the first schedule; with any
/// other provider it is whatever thread the provider's <see cref="ITimer"/> calls back on (for a fake provider, the
/// thread that advances its clock).
/// </para>
/// <para>
/// <b>Order.</b> Entries fire in deadline order; equal deadlines fire in the order they were scheduled (a move counts
/// as a new schedule). An entry fires after its deadline by the provider's clock, never before: deadlines are rounded
/// up (<see cref="DeadlineAfter"/>) and a batch takes only entries whose deadline is at most the clock read under the
/// lock. After <see cref="Cancel"/> returns true the entry does not fire for that schedule; after it returns false
/// because firing is under way, <see cref="TimerEntry.Fire"/> may still be running on the firer, and the caller's own
/// protocol must absorb it.
/// </para>
/// <para>
/// <b>Why a heap.</b> A 4-ary min-heap of (deadline, sequence, entry) slots, each entry keeping its slot's index, so
/// <see cref="Schedule"/>, a move and <see cref="Cancel"/> are O(log n) and a cancel needs no search or tombstone. A
/// hierarchical timing wheel (Tokio, Netty, Kafka) would make them O(1), but it rounds deadlines to its tick and
/// cascades entries between levels; it pays off with millions of short timeouts scheduled and cancelled per second.
/// Here the common case is a timeout cancelled soon after it was scheduled, whose slot is near the heap's bottom, and
/// a deadline later than all others, which sifts up one comparison or none; a heap also keeps exact provider ticks, so
/// a fake clock advanced by one tick fires exactly what is due. Four children per node halve the depth of a binary
/// heap (10 levels for a million entries) and keep a node's children on one or two cache lines. Keys live in the
/// array (<see cref="TimerNode"/>), so a sift reads no entry it passes over. Memory: 24 bytes of array per pending
/// entry (up to twice that while the array has room to grow), plus the entry itself.
/// </para>
/// <para>
/// <b>Disposal.</b> <see cref="Dispose()"/> forgets every pending entry (none of them fires), waits for a batch being
/// fired on another thread to stop, disposes the provider's timer and joins the queue's own thread: no
/// <see cref="TimerEntry.Fire"/> runs after it returns, unless it was called from inside one. A schedule after disposal
/// does nothing.
/// </para>
/// </remarks>
internal sealed partial class TimerQueue : IDisposable
{
    /// <summary>Children per heap node; see "Why a heap" above.</summary>
    private const int Arity = 4;

    /// <summary>
    /// Most entries a batch takes under the lock, so a million entries falling due at once do not hold schedules and
    /// cancels off for the whole pop. Guessed.
    /// </summary>
    private const int MaxBatch = 1024;

    /// <summary>The heap array's smallest size once it exists, and the size below which it never shrinks. Guessed.</summary>
    private const int MinCapacity = 16;

    /// <summary>
    /// The longest a provider's <see cref="ITimer"/> is armed for at once; a later deadline re-arms when it fires.
    /// <see cref="System.Threading.Timer"/> and FakeTimeProvider both refuse more than about 49.7 days.
    /// </summary>
    private static readonly TimeSpan MaxArm = TimeSpan.FromMilliseconds(int.MaxValue);

    /// <summary>
    /// The queue whose <see cref="ITimer.Change"/> this OS thread is inside, if any. A provider may call the timer
    /// back synchronously from <c>Change</c> (FakeTimeProvider does when the due time is zero, or when another thread
    /// advanced its clock meanwhile); that callback must not fire entries on a thread that is scheduling one, perhaps
    /// under its own caller's lock, so it goes to the thread pool instead.
    /// </summary>
    [ThreadStatic]
    private static TimerQueue? t_arming;

    /// <summary>Where all of this queue's time comes from.</summary>
    private readonly TimeProvider _provider;

    /// <summary>The provider's timestamp units per second, read once: a provider's frequency does not change.</summary>
    private readonly long _frequency;

    /// <summary>Timestamp units per <see cref="TimeSpan"/> tick when that is a whole number (1 for 10 MHz, 100 for 1 GHz), else 0.</summary>
    private readonly long _unitsPerTick;

    /// <summary>
    /// The most ticks <see cref="UnitsOf"/> converts without saturating, when <see cref="_unitsPerTick"/> is whole:
    /// divided once here, not at every timed wait that parks (a 64-bit division is tens of cycles).
    /// </summary>
    private readonly long _ticksBeforeSaturating;

    /// <summary>
    /// True for <see cref="TimeProvider.System"/>: the queue fires from its own OS thread, not from
    /// <see cref="TimeProvider.CreateTimer"/>, whose callbacks run on the thread pool, which blocking calls in user
    /// code (<c>Thread.Sleep</c>, synchronous I/O, sync-over-async) can starve for seconds, and every sleep would be as
    /// late as that.
    /// </summary>
    private readonly bool _ownThread;

    /// <summary>Guards the heap, the firer and the disposal flag; the monitor the queue's own thread waits on.</summary>
    private readonly object _lock = new();

    /// <summary>Serializes arming the provider's timer, so the last <see cref="ITimer.Change"/> made is for the earliest deadline read last.</summary>
    private readonly object _armLock = new();

    /// <summary>The batch being fired; only the firer touches it.</summary>
    private readonly List<TimerEntry> _batch = [];

    /// <summary>Pending entries, a 4-ary min-heap in <c>[0, _count)</c>. Guarded by <see cref="_lock"/>.</summary>
    private TimerNode[] _heap = [];

    /// <summary>How many entries are pending. Guarded by <see cref="_lock"/>.</summary>
    private int _count;

    /// <summary>Schedules made so far, for each node's <see cref="TimerNode.Sequence"/>. Guarded by <see cref="_lock"/>.</summary>
    private long _sequence;

    /// <summary>Set once, under <see cref="_lock"/>, by <see cref="Dispose()"/>; read without it by the firer between entries.</summary>
    private volatile bool _disposed;

    /// <summary>The thread firing a batch, or null. Guarded by <see cref="_lock"/>.</summary>
    private Thread? _firer;

    /// <summary>With <see cref="TimeProvider.System"/>, the queue's own OS thread once started. Guarded by <see cref="_lock"/>.</summary>
    private Thread? _thread;

    /// <summary>
    /// With <see cref="TimeProvider.System"/>: the queue's thread looks at the heap again by this timestamp without
    /// being pulsed, so a schedule pulses it only for an earlier deadline; <see cref="long.MaxValue"/> while it waits
    /// without a timeout, <see cref="long.MinValue"/> while it fires (it looks again after the batch). Guarded by
    /// <see cref="_lock"/>.
    /// </summary>
    private long _threadLooksBy = long.MaxValue;

    /// <summary>
    /// Set when the provider's timer called back from inside <see cref="Arm"/>'s own <see cref="ITimer.Change"/>, on the
    /// arming thread; Arm then arms again. Guarded by <see cref="_armLock"/>.
    /// </summary>
    private bool _calledBackWhileArming;

    /// <summary>With another provider, its timer, made by the first arming. Guarded by <see cref="_armLock"/>.</summary>
    private ITimer? _timer;

    /// <summary>
    /// With another provider: a callback of its timer comes by this timestamp (the timer is armed for it, or a callback
    /// for an earlier arming is under way and re-arms), so a schedule arms only for an earlier deadline;
    /// <see cref="long.MaxValue"/> when none is owed. Written under <see cref="_armLock"/> before each
    /// <see cref="ITimer.Change"/>; read under <see cref="_lock"/> by <see cref="Schedule"/>.
    /// </summary>
    private long _armedFor = long.MaxValue;

    /// <summary>Initializes a queue on <paramref name="provider"/>'s time; it starts no thread and makes no timer until the first schedule.</summary>
    internal TimerQueue(TimeProvider provider)
    {
        _provider = provider;
        _frequency = provider.TimestampFrequency;
        _unitsPerTick = _frequency % TimeSpan.TicksPerSecond == 0 ? _frequency / TimeSpan.TicksPerSecond : 0;
        _ticksBeforeSaturating = _unitsPerTick != 0 ? long.MaxValue / _unitsPerTick : 0;
        _ownThread = ReferenceEquals(provider, TimeProvider.System);
        if (_ownThread)
        {
            CoarseClock.StartCalibrating();
        }
    }

    /// <summary>Gets the provider's timestamp units per second.</summary>
    internal long Frequency => _frequency;

    /// <summary>Gets the provider's current timestamp: the time deadlines are measured in.</summary>
    internal long Now => _ownThread ? Stopwatch.GetTimestamp() : _provider.GetTimestamp();

    /// <summary>
    /// Gets the deadline <paramref name="duration"/> from <see cref="Now"/>, in the provider's timestamp units, rounded
    /// up so nothing fires early; saturates at <see cref="long.MaxValue"/>. A negative duration counts as zero.
    /// </summary>
    internal long DeadlineAfter(TimeSpan duration)
    {
        var units = UnitsOf(duration.Ticks);
        var now = Now;
        return units > long.MaxValue - now ? long.MaxValue : now + units;
    }

    /// <summary>
    /// As <see cref="DeadlineAfter"/>, for a timeout read at every wait that parks: with the system clock, from the
    /// <see cref="CoarseClock"/> once it is calibrated, which never lags the precise clock, so the deadline is never
    /// early but may be late by the coarse clock's tick plus two milliseconds (about 6 ms on Linux). Any other provider's
    /// time is read exactly.
    /// </summary>
    internal long TimeoutDeadlineAfter(TimeSpan duration)
    {
        if (!_ownThread || !CoarseClock.IsReady)
        {
            return DeadlineAfter(duration);
        }

        var units = UnitsOf(duration.Ticks);
        var now = CoarseClock.Now;
        return units > long.MaxValue - now ? long.MaxValue : now + units;
    }

    /// <summary>
    /// Schedules <paramref name="entry"/> to fire once <see cref="Now"/> reaches <paramref name="deadline"/>; moves it
    /// there if it is pending already. Any thread; never fires anything on the calling thread. Does nothing once the
    /// queue is disposed.
    /// </summary>
    internal void Schedule(TimerEntry entry, long deadline)
    {
        var arm = false;
        lock (_lock)
        {
            if (_disposed)
            {
                return;
            }

            var node = new TimerNode { Deadline = deadline, Sequence = _sequence++, Entry = entry };
            var index = entry.HeapIndex;
            if (index >= 0)
            {
                AssertPendingHere(entry);

                // A move: the new sequence is the largest, so the node goes up only for an earlier deadline.
                var earlier = deadline < _heap[index].Deadline;
                _heap[index] = node;
                if (earlier)
                {
                    SiftUp(index);
                }
                else
                {
                    SiftDown(index);
                }
            }
            else
            {
#if DEBUG
                Debug.Assert(entry.Owner is null, $"A timer entry ({entry}) was scheduled in a second queue while pending in another.");
                entry.Owner = this;
#endif
                if (_count == _heap.Length)
                {
                    Resize(Math.Max(MinCapacity, _heap.Length * 2));
                }

                _heap[_count] = node;
                SiftUp(_count++);
            }

            if (entry.HeapIndex == 0)
            {
                if (_ownThread)
                {
                    WakeThreadFor(deadline);
                }
                else
                {
                    // Read under the lock, after the insertion: see _armedFor.
                    arm = deadline < Volatile.Read(ref _armedFor);
                }
            }
        }

        if (arm)
        {
            Arm();
        }
    }

    /// <summary>
    /// Cancels <paramref name="entry"/>. Any thread. Returns true if it was pending and now will not fire; false if it
    /// was not pending (never scheduled, already fired, cancelled, or its <see cref="TimerEntry.Fire"/> under way).
    /// </summary>
    /// <remarks>Never re-arms: a wake-up left for a cancelled head finds nothing due and arms for the next deadline.</remarks>
    internal bool Cancel(TimerEntry entry)
    {
        // Not pending as far as this thread can see: the cancel comes before any schedule it has not seen.
        if (!entry.IsPending)
        {
            return false;
        }

        lock (_lock)
        {
            var index = entry.HeapIndex;
            if (index < 0)
            {
                return false;
            }

            AssertPendingHere(entry);
            RemoveAt(index);
            ShrinkIfSparse();
            return true;
        }
    }

    /// <summary>
    /// As <see cref="Cancel"/>, but always under the lock, without the look at <see cref="TimerEntry.IsPending"/>
    /// first: for a stop, which must either find a schedule another thread made just before, or be seen by that thread
    /// after its schedule, and the lock is what both sides then pass through. Any thread.
    /// </summary>
    internal bool CancelUnderLock(TimerEntry entry)
    {
        lock (_lock)
        {
            var index = entry.HeapIndex;
            if (index < 0)
            {
                return false;
            }

            AssertPendingHere(entry);
            RemoveAt(index);
            ShrinkIfSparse();
            return true;
        }
    }

    /// <summary>
    /// Forgets every pending entry, stops firing, and releases the thread or timer; see "Disposal" in the remarks.
    /// Any thread; idempotent.
    /// </summary>
    public void Dispose()
    {
        Thread? thread;
        lock (_lock)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            for (var i = 0; i < _count; i++)
            {
                var entry = _heap[i].Entry;
                entry.HeapIndex = -1;
#if DEBUG
                entry.Owner = null;
#endif
            }

            _heap = [];
            _count = 0;

            // Wakes the queue's own thread, and nobody else: the firer does not wait on this monitor.
            Monitor.PulseAll(_lock);

            // A batch fired on another thread stops at its next entry (it reads _disposed before each); wait for that.
            // A dispose from inside Fire cannot wait for itself.
            while (_firer is not null && _firer != Thread.CurrentThread)
            {
                Monitor.Wait(_lock);
            }

            thread = _thread;
        }

        lock (_armLock)
        {
            // An arming under way has finished (it holds this lock across Change); the heap is empty, so none comes.
            _timer?.Dispose();
            _timer = null;
        }

        if (thread is not null && thread != Thread.CurrentThread)
        {
            thread.Join();
        }
    }

    /// <summary>Converts a <see cref="TimeSpan"/> tick count to timestamp units, rounded up; negative gives 0, overflow saturates.</summary>
    internal long UnitsOf(long ticks)
    {
        if (ticks <= 0)
        {
            return 0;
        }

        if (_unitsPerTick != 0)
        {
            return ticks > _ticksBeforeSaturating ? long.MaxValue : ticks * _unitsPerTick;
        }

        var product = (Int128)ticks * _frequency;
        var units = (product + (TimeSpan.TicksPerSecond - 1)) / TimeSpan.TicksPerSecond;
        return units > long.MaxValue ? long.MaxValue : (long)units;
    }

    /// <summary>Converts timestamp units to <see cref="TimeSpan"/> ticks, rounded up, so a wait never ends early.</summary>
    private long TicksOf(long units)
    {
        if (_unitsPerTick != 0)
        {
            return (units / _unitsPerTick) + (units % _unitsPerTick == 0 ? 0 : 1);
        }

        var product = (Int128)units * TimeSpan.TicksPerSecond;
        var ticks = (product + (_frequency - 1)) / _frequency;
        return ticks > long.MaxValue ? long.MaxValue : (long)ticks;
    }

}
