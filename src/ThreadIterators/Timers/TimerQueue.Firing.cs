using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

// Firing: the queue's own OS thread (system clock) or one provider timer (any other clock) fires due entries in batches
// taken under the lock and fired outside it, one firer at a time (FireDue): under the lock it takes up to MaxBatch
// entries whose deadline is at most the clock (TakeDue, earliest first, marking each not pending), calls their Fire
// outside the lock, and repeats until none is due. All of a scheduler's time comes from its TimeProvider (deadlines are
// rounded up in its units, so nothing fires early); what measures the machine rather than program time stays on
// Stopwatch: the watchdog's turn lengths, the idle workers' spinning, WaitForAll's timeout.
//   1. With TimeProvider.System the firer is the queue's own OS thread (Run), started by the first schedule; not
//      TimeProvider.CreateTimer, whose callbacks run on the thread pool, which blocking calls in user code can starve,
//      making every sleep as late. It waits on the lock's monitor until the earliest deadline (rounded up to whole
//      milliseconds), without a timeout while nothing is pending. A schedule pulses it only when its deadline is
//      earlier than the time the thread will look anyway (_threadLooksBy, WakeThreadFor); a cancelled head leaves the
//      thread's wait as it is, and it finds nothing due then. So scheduling and cancelling timeouts an hour out never
//      wakes it.
//   2. With any other provider the firer is the callback of one provider timer (OnTimer), armed (Arm: ITimer.Change,
//      under a second lock, _armLock) for the earliest deadline. _armedFor says when a callback is owed; a schedule
//      arms only for an earlier deadline, a cancel never re-arms, and each callback fires what is due, then arms for
//      the next deadline. A fake provider's Advance thus fires what it passes on the advancing thread, before it
//      returns. Two cases need care. A provider may call back from inside Change (FakeTimeProvider does for a deadline
//      already reached): a schedule must never fire on its caller's thread, which may hold its own caller's lock, so
//      that callback goes to the thread pool, and the arming also arms one provider tick out. And a callback that finds
//      another thread firing returns without arming: that firer arms when done.
//   3. Due times passed to Change are relative to the provider's clock when it runs, so a fake clock advanced by
//      another thread in the middle of an arming fires that arming late by the advance (never early). Tests therefore
//      wait for the green threads to park and the queue to settle (Probe.TimersSettled) before they advance.
internal sealed partial class TimerQueue
{
    /// <summary>Under the lock, with the system clock: starts the queue's thread, or pulses it if it would look too late for <paramref name="deadline"/>.</summary>
    private void WakeThreadFor(long deadline)
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The queue's thread and its look-by time are read and written, and its monitor pulsed, without the queue's lock.");
        if (_thread is null)
        {
            // A dedicated thread rather than the thread pool: see _ownThread. Background, so it never keeps the process alive.
            _thread = new Thread(Run) { IsBackground = true, Name = "ThreadIterators timer" };
            _thread.UnsafeStart();
        }

        if (deadline < _threadLooksBy)
        {
            _threadLooksBy = deadline;
            Monitor.Pulse(_lock);
        }
    }

    /// <summary>With the system clock: the queue's own thread. Waits for the earliest deadline (without a timeout while nothing is pending), fires, repeats.</summary>
    private void Run()
    {
        while (true)
        {
            lock (_lock)
            {
                while (true)
                {
                    if (_disposed)
                    {
                        return;
                    }

                    var now = Stopwatch.GetTimestamp();
                    var target = _count > 0 ? _heap[0].Deadline : long.MaxValue;

                    // A schedule skipped its pulse because this thread promised to look by _threadLooksBy; keep the
                    // promise even if that entry was cancelled since, so schedules for later deadlines still need none.
                    if (_threadLooksBy > now && _threadLooksBy < target)
                    {
                        target = _threadLooksBy;
                    }

                    if (target <= now)
                    {
                        break;
                    }

                    _threadLooksBy = target;
                    if (target == long.MaxValue)
                    {
                        Monitor.Wait(_lock);
                    }
                    else
                    {
                        // Monitor.Wait takes whole milliseconds: round up, so the thread wakes at or after the deadline.
                        var milliseconds = (TicksOf(target - now) + (TimeSpan.TicksPerMillisecond - 1)) / TimeSpan.TicksPerMillisecond;
                        Monitor.Wait(_lock, (int)Math.Min(milliseconds, int.MaxValue));
                    }
                }

                _threadLooksBy = long.MinValue;
            }

            CoarseClock.Check();
            FireDue();
        }
    }

    /// <summary>
    /// With another provider: arms its timer for the earliest deadline, unless a callback already comes by then.
    /// Never under <see cref="_lock"/> (the provider may call back synchronously, or take its own locks).
    /// </summary>
    private void Arm()
    {
        lock (_armLock)
        {
            long earliest;
            lock (_lock)
            {
                if (_count == 0)
                {
                    return;
                }

                earliest = _heap[0].Deadline;
            }

            if (earliest >= _armedFor)
            {
                return;
            }

            var now = Now;
            var units = earliest - now;
            TimeSpan due;
            if (units <= 0)
            {
                due = TimeSpan.Zero;
                _armedFor = earliest;
            }
            else
            {
                var ticks = TicksOf(units);
                if (ticks > MaxArm.Ticks)
                {
                    // The callback comes after MaxArm, finds nothing due, and arms again. Saying it comes at the
                    // deadline would be wrong: an earlier deadline scheduled meanwhile must arm.
                    due = MaxArm;
                    _armedFor = now + UnitsOf(MaxArm.Ticks);
                }
                else
                {
                    due = TimeSpan.FromTicks(ticks);
                    _armedFor = earliest;
                }
            }

            // Set before Change, under this lock: a schedule that reads it and skips arming is then sure of a callback.
            _timer ??= CreateTimer();
            t_arming = this;
            try
            {
                _timer.Change(due, Timeout.InfiniteTimeSpan);
                while (_calledBackWhileArming)
                {
                    // The provider called back from inside Change (the deadline had passed by its clock), and the
                    // callback went to the thread pool, which blocked threads may starve (in tests, a test thread
                    // joining others is enough). Arm one tick out as well, so the provider's next tick fires it too.
                    _calledBackWhileArming = false;
                    _armedFor = Now + UnitsOf(1);
                    _timer.Change(TimeSpan.FromTicks(1), Timeout.InfiniteTimeSpan);
                }
            }
            finally
            {
                t_arming = null;
            }
        }
    }

    /// <summary>Makes the provider's timer, unarmed; without flowing the caller's execution context into it for good.</summary>
    private ITimer CreateTimer()
    {
        var suppressed = !ExecutionContext.IsFlowSuppressed();
        if (suppressed)
        {
            ExecutionContext.SuppressFlow();
        }

        try
        {
            return _provider.CreateTimer(static state => ((TimerQueue)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        }
        finally
        {
            if (suppressed)
            {
                ExecutionContext.RestoreFlow();
            }
        }
    }

    /// <summary>The provider's timer callback: fires what is due and arms for the next deadline.</summary>
    private void OnTimer()
    {
        if (t_arming == this)
        {
            // Called back from inside Change, on a thread that is scheduling: see t_arming. This thread holds the
            // arm lock (Arm is below on its stack), so the flag is written under it.
            Debug.Assert(Monitor.IsEntered(_armLock), "The called-back-while-arming flag is written without the arm lock, which Arm holds across Change.");
            _calledBackWhileArming = true;
            ThreadPool.UnsafeQueueUserWorkItem(static queue => queue.OnTimer(), this, preferLocal: false);
            return;
        }

        lock (_armLock)
        {
            // The one-shot timer is spent (or a later arming is, and this resets to a needless re-arm at worst).
            _armedFor = long.MaxValue;
        }

        // A thread already firing arms when it is done (every firer is a callback that ends here); arming now, for a
        // head it is about to fire, would call back at once, find it still busy, and spin.
        if (FireDue())
        {
            Arm();
        }
    }

    /// <summary>
    /// Fires every entry due by the clock, in batches taken under the lock and fired outside it, until none is due.
    /// If another thread is firing, returns false at once: that firer reads the clock again after its batch.
    /// </summary>
    /// <returns>True if this thread was the firer; false if another was, or the queue is disposed.</returns>
    private bool FireDue()
    {
        lock (_lock)
        {
            if (_firer is not null || _disposed)
            {
                return false;
            }

            _firer = Thread.CurrentThread;
        }

        var batch = _batch;
        var finished = false;
        try
        {
            while (true)
            {
                lock (_lock)
                {
                    if (!_disposed)
                    {
                        TakeDue(Now, batch);
                    }

                    if (batch.Count == 0)
                    {
                        // In the same lock as the look that found nothing, so a thread that saw this firer busy was seen.
                        LeaveFiring();
                        finished = true;
                        return true;
                    }
                }

                foreach (var entry in batch)
                {
                    if (_disposed)
                    {
                        break;
                    }

                    entry.Fire();
                }

                batch.Clear();
            }
        }
        finally
        {
            if (!finished)
            {
                // Fire threw: a runtime bug, which propagates; the rest of the batch is lost, but disposal must not hang.
                batch.Clear();
                lock (_lock)
                {
                    LeaveFiring();
                }
            }
        }
    }

    /// <summary>Under the lock: this thread stops firing; a disposal waiting for that goes on.</summary>
    private void LeaveFiring()
    {
        Debug.Assert(Monitor.IsEntered(_lock), "The firer is cleared, and a waiting disposal pulsed, without the queue's lock.");
        _firer = null;
        if (_disposed)
        {
            Monitor.PulseAll(_lock);
        }
    }
}
