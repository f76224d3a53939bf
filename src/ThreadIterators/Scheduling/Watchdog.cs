using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A scheduler's monitor thread, in the manner of Go's <c>sysmon</c>: it looks at the workers from outside, so the
/// hop path pays nothing for what only time can tell.
/// </summary>
/// <remarks>
/// <para>Every tick it:</para>
/// <list type="number">
/// <item>asks the workers to look at the inject queue at their next turn if threads wait there
/// (<see cref="Worker.LookAtInjectedSoon"/>): the time budget that a turn count cannot give when turns are long;</item>
/// <item>finds turns that have lasted at least <see cref="StrandedAfter"/> and, under a policy that steals, takes the
/// thread such a turn left in its worker's run-next slot to the inject queue (<see cref="Worker.StealRunNext"/>),
/// where an idle worker runs it: a thread woken by a turn that then spins or blocks would otherwise wait for the
/// end of that turn, or forever;</item>
/// <item>reports a turn that has lasted <see cref="SchedulerOptions.LongTurnThreshold"/> through
/// <see cref="Scheduler.LongTurn"/>, once per turn.</item>
/// </list>
/// <para>
/// It ticks every <see cref="BusyTick"/> while any worker is awake, and from the first look that finds every worker
/// parked and no turn run since the look before, sleeps until one is woken (<see cref="Nudge"/>), so an idle scheduler
/// costs nothing and the first turn after idleness is watched as closely as any other. (It used to slow down from 1 to
/// 100 ms ticks over its first 126 ms of idleness, and a worker woken meanwhile did not cut its wait short: a thread
/// that first turn left in a run-next slot and then blocked waited out the tick, 14 to 31 ms in median after 20 to 100
/// ms of idleness, against 3 ms otherwise; see docs/waiting.md.) Its own OS thread only, apart from
/// <see cref="Start"/>, <see cref="Nudge"/> and <see cref="Dispose()"/>.
/// </para>
/// </remarks>
internal sealed class Watchdog : IDisposable
{
    /// <summary>The tick while workers run turns: the inject queue waits at most about this long for a look. Guessed, after Go's sysmon, which ticks from 20 µs to 10 ms.</summary>
    internal static readonly TimeSpan BusyTick = TimeSpan.FromMilliseconds(1);

    /// <summary>
    /// How long a turn may hold a woken thread in its worker's run-next slot before the watchdog moves it: two busy
    /// ticks, so a turn is seen unchanged at three looks. Guessed; far above a hop, far below a user's patience.
    /// </summary>
    internal static readonly TimeSpan StrandedAfter = TimeSpan.FromMilliseconds(2);

    private readonly Scheduler _scheduler;

    private readonly Thread _thread;

    /// <summary>
    /// What the thread waits on between ticks, and while asleep: set by <see cref="Dispose()"/> and by
    /// <see cref="Nudge"/>. It does not spin first: a spin per tick cost more than the tick.
    /// </summary>
    private readonly ManualResetEventSlim _signal = new(false, spinCount: 0);

    /// <summary>Set by <see cref="Dispose()"/>.</summary>
    private volatile bool _stopping;

    /// <summary>
    /// How long the thread's current wait lasts before its next look, in milliseconds: a busy tick, or
    /// <see cref="Timeout.Infinite"/> while it sleeps, every worker parked; <see cref="Nudge"/> then wakes it. A field,
    /// so a test can tell how far the next look is.
    /// </summary>
    private int _waitMs = BusyTickMs;

    /// <summary>Per worker: the turn count seen last.</summary>
    private readonly int[] _turns;

    /// <summary>Per worker: when that turn was first seen (a <see cref="Stopwatch"/> timestamp), or 0 between turns.</summary>
    private readonly long[] _since;

    /// <summary>Per worker: whether that turn was reported as long already.</summary>
    private readonly bool[] _reported;

    /// <summary>Per worker: the runtime's total GC pause (<see cref="_gcPauses"/>) when that turn was first seen.</summary>
    private readonly TimeSpan[] _pausedBefore;

    /// <summary>
    /// The runtime's total time paused for garbage collection so far, <see cref="GC.GetTotalPauseDuration"/>. A turn is
    /// long by its own time: a pause that stopped every thread during it is taken off before the threshold, or a full
    /// collection of a large heap would blame whichever threads it caught. A field, so a test can stand in for the GC.
    /// </summary>
    private Func<TimeSpan> _gcPauses = GC.GetTotalPauseDuration;

    /// <summary>The long-turn threshold in <see cref="Stopwatch"/> ticks; <see cref="long.MaxValue"/> when reporting is off.</summary>
    private readonly long _longTurnTicks;

    internal Watchdog(Scheduler scheduler, TimeSpan longTurnThreshold)
    {
        _scheduler = scheduler;
        var count = scheduler.Workers.Length;
        _turns = new int[count];
        _since = new long[count];
        _reported = new bool[count];
        _pausedBefore = new TimeSpan[count];
        _longTurnTicks = longTurnThreshold == Timeout.InfiniteTimeSpan ? long.MaxValue : TicksOf(longTurnThreshold);
        _thread = new Thread(Run) { IsBackground = true, Name = "ThreadIterators watchdog" };
    }

    internal void Start() => _thread.UnsafeStart();

    /// <summary>Stops the thread, if started, and waits for it; the disposing thread, after the workers stopped.</summary>
    public void Dispose()
    {
        _stopping = true;
        _signal.Set();
        if ((_thread.ThreadState & System.Threading.ThreadState.Unstarted) == 0)
        {
            _thread.Join();
        }

        _signal.Dispose();
    }

    /// <summary>
    /// Wakes the thread if it sleeps because every worker was idle; called as a worker leaves the idle list, after the
    /// full fence of its unlisting. The watchdog sets <see cref="_waitMs"/> and passes a full fence before it looks at
    /// the list a last time, so either it sees the worker unlisted or the worker sees it asleep.
    /// </summary>
    internal void Nudge()
    {
        if (Volatile.Read(ref _waitMs) == Timeout.Infinite)
        {
            _signal.Set();
        }
    }

    /// <summary><see cref="BusyTick"/> in milliseconds, as <see cref="_waitMs"/> holds it.</summary>
    private static int BusyTickMs => (int)BusyTick.TotalMilliseconds;

    private static long TicksOf(TimeSpan span) => (long)(span.TotalSeconds * Stopwatch.Frequency);

    private void Run()
    {
        var stranded = TicksOf(StrandedAfter);
        while (true)
        {
            if (_signal.Wait(BusyTick))
            {
                _signal.Reset();
                if (_stopping)
                {
                    return;
                }
            }

            var now = Stopwatch.GetTimestamp();
            var workers = _scheduler.Workers;
            if (_scheduler.HasInjected)
            {
                foreach (var worker in workers)
                {
                    worker.LookAtInjectedSoon();
                }
            }

            var busy = false;
            for (var i = 0; i < workers.Length; i++)
            {
                busy |= Look(workers[i], i, now, stranded);
            }

            // A worker awake but in no turn (spinning, or between its wake-up and its first turn) keeps the busy tick:
            // that lasts microseconds, and a slower tick then would let the turn it starts strand a thread that long.
            if (!busy && _scheduler.Idle.AllListed)
            {
                // Every worker parked: sleep until one is woken, as Go's sysmon does, so an idle scheduler costs no
                // CPU (each timed wake-up cost a 2-core VM about 0.1 ms of CPU: ticking every 16 ms made an idle
                // scheduler of 2 workers cost 0.38% of a core, samples/Footprint --idle-seconds 10). At once, not after
                // backing off: whoever wakes a worker nudges this thread only while it sleeps, so a slow tick would be
                // waited out.
                Interlocked.Exchange(ref _waitMs, Timeout.Infinite);
                if (_scheduler.Idle.AllListed)
                {
                    _signal.Wait();
                }

                // Before the reset: a reader that finds the signal reset finds the thread awake.
                Volatile.Write(ref _waitMs, BusyTickMs);
                _signal.Reset();
                if (_stopping)
                {
                    return;
                }
            }
        }
    }

    /// <summary>Looks at one worker; returns true if it ran turns since the last look or is in one.</summary>
    private bool Look(Worker worker, int index, long now, long stranded)
    {
        // Id before turn count, as StealRunNext reads them.
        var running = worker.RunningId;
        var turn = worker.TurnCount;
        if (turn != _turns[index] || running == 0)
        {
            var moved = turn != _turns[index];
            _turns[index] = turn;
            _since[index] = running == 0 ? 0 : now;
            _reported[index] = false;
            if (running != 0)
            {
                _pausedBefore[index] = _gcPauses();
            }

            return moved || running != 0;
        }

        if (_since[index] == 0)
        {
            // The last look read the id before this turn set it, and the count after: the turn starts now for us.
            _since[index] = now;
            _pausedBefore[index] = _gcPauses();
            return true;
        }

        var lasted = now - _since[index];
        if (lasted >= stranded && _scheduler.Placement.Steals && _scheduler.Workers.Length > 1)
        {
            if (worker.StealRunNext(turn) is { } thread)
            {
                Interlocked.Increment(ref _scheduler.Counts.Steals);
                if (ThreadIteratorsEventSource.Log.SchedulingEnabled)
                {
                    // Taken for whichever worker finds it in the inject queue: no worker is the thief (-1).
                    ThreadIteratorsEventSource.Log.ThreadSteal(_scheduler.Number, thread.Id, -1);
                }

                _scheduler.Inject(thread, wake: true);
            }
            else if (worker.Queue.Count != 0 || worker.Spawns.Count > 0 || worker.HasInbound)
            {
                // Its queued threads can be stolen; make sure somebody is awake to do it.
                _scheduler.WakeIdleWorker();
            }
        }

        if (lasted >= _longTurnTicks && !_reported[index])
        {
            var paused = _gcPauses() - _pausedBefore[index];
            if (lasted - TicksOf(paused) >= _longTurnTicks)
            {
                _reported[index] = true;
                _scheduler.ReportLongTurn(running, worker.Index, TimeSpan.FromSeconds((double)lasted / Stopwatch.Frequency), paused);
            }
        }

        return true;
    }
}
