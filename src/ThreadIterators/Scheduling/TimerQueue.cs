using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Sleeping green threads ordered by deadline, and one OS thread (started on the first sleep) that makes them ready
/// in deadline order. With nothing to wake it blocks without a timeout, so an idle scheduler costs no CPU.
/// </summary>
/// <remarks>Any thread; state guarded by locking <see cref="_sleepers"/>.</remarks>
internal sealed class TimerQueue : IDisposable
{
    /// <summary>The scheduler whose threads sleep here.</summary>
    private readonly Scheduler _scheduler;

    /// <summary>Sleepers by deadline, ties broken by arrival.</summary>
    private readonly PriorityQueue<GreenThread, (long Deadline, long Sequence)> _sleepers = new();

    /// <summary>The OS thread that wakes sleepers.</summary>
    private readonly Thread _thread;

    /// <summary>Arrival counter for ties.</summary>
    private long _sequence;

    /// <summary>Set by <see cref="Dispose"/>.</summary>
    private bool _disposed;

    internal TimerQueue(Scheduler scheduler)
    {
        _scheduler = scheduler;
        _thread = new Thread(Run) { IsBackground = true, Name = "ThreadIterators timer" };
    }

    /// <summary>Gets the <see cref="Stopwatch"/> timestamp <paramref name="duration"/> from now.</summary>
    internal static long DeadlineAfter(TimeSpan duration)
    {
        var ticks = (long)Math.Ceiling(duration.TotalSeconds * Stopwatch.Frequency);
        return Stopwatch.GetTimestamp() + ticks;
    }

    /// <summary>Starts the timer thread; once, by the scheduler that created this queue.</summary>
    internal void Start() => _thread.Start();

    internal void Add(long deadline, GreenThread thread)
    {
        lock (_sleepers)
        {
            _sleepers.Enqueue(thread, (deadline, _sequence++));
            if (_sleepers.Peek() == thread)
            {
                Monitor.Pulse(_sleepers);
            }
        }
    }

    public void Dispose()
    {
        lock (_sleepers)
        {
            _disposed = true;
            _sleepers.Clear();
            Monitor.Pulse(_sleepers);
        }

        _thread.Join();
    }

    private void Run()
    {
        var due = new List<GreenThread>();
        while (true)
        {
            lock (_sleepers)
            {
                while (true)
                {
                    if (_disposed)
                    {
                        return;
                    }

                    if (_sleepers.TryPeek(out _, out var first))
                    {
                        var wait = Stopwatch.GetElapsedTime(Stopwatch.GetTimestamp(), first.Deadline);
                        if (wait <= TimeSpan.Zero)
                        {
                            break;
                        }

                        // Monitor.Wait rounds down to whole milliseconds; round up so no sleeper wakes early. Sleeps are
                        // at most Event.MaxSleep, so this fits an int.
                        Monitor.Wait(_sleepers, (int)Math.Min(int.MaxValue, Math.Ceiling(wait.TotalMilliseconds)));
                    }
                    else
                    {
                        Monitor.Wait(_sleepers);
                    }
                }

                var now = Stopwatch.GetTimestamp();
                while (_sleepers.TryPeek(out var thread, out var key) && key.Deadline <= now)
                {
                    _sleepers.Dequeue();
                    due.Add(thread);
                }
            }

            foreach (var thread in due)
            {
                _scheduler.Ready(thread);
            }

            due.Clear();
        }
    }
}
