using System.Diagnostics;

namespace ThreadIterators;

/// <summary>
/// <see cref="SchedulingPolicy.SoftAffinity"/>: a woken thread whose steps take long (see <see cref="HeavyStep"/>)
/// goes back to its home, the worker it last ran on, where its own state is likely still in cache. Otherwise it runs
/// next on the waking worker, where the message is in cache: a thread that does little with each message (a
/// forwarder, a ping-pong partner) is mostly its message, and sending it home would cost more than the hop. A heavy
/// thread also stays with the message when its home is listed idle, because waking a parked worker costs
/// microseconds; a home that is spinning for work takes it from its inbound queue at once. Idle workers steal; a
/// thread makes its home wherever it runs.
/// </summary>
/// <remarks>Any thread, as <see cref="IPlacementPolicy"/> says; the weighing runs on the thread's own worker.</remarks>
internal sealed class SoftAffinityPolicy(Scheduler scheduler) : IPlacementPolicy
{
    /// <summary>Every this many turns of a worker, the turn's first step is timed (two timestamp reads). Guessed.</summary>
    internal const int WeighInterval = 32;

    /// <summary>
    /// Gets the <see cref="Stopwatch"/> ticks from resuming a thread to its next yield above which the thread counts
    /// as heavy: 300 ns, a few times what a hop to another core's queue costs, so for a heavier thread going home is
    /// cheap next to its work. A thread counts as light again below <see cref="LightStep"/>. Both are above the
    /// 100-250 ns a ping-pong step takes when its partner is on the other core: lower thresholds made ping-pong
    /// partners heavy, which sent them home to different cores, which kept their steps slow and them heavy
    /// (41 against 65 ns per message on 2 workers).
    /// </summary>
    internal static long HeavyStep { get; } = Stopwatch.Frequency * 300 / 1_000_000_000;

    /// <summary>Gets the ticks below which a weighed step makes a thread light again: 150 ns.</summary>
    internal static long LightStep { get; } = Stopwatch.Frequency * 150 / 1_000_000_000;

    public bool Steals => true;

    public bool Pins => false;

    public int HomeOf(long id, Worker? spawner) => spawner?.Index ?? GreenThread.Homeless;

    public void Spawned(GreenThread thread, Worker? spawner)
    {
        if (spawner is null)
        {
            // Homeless: the first worker free runs it, and the first worker that wakes it becomes its home, so
            // threads started together from outside are not dealt out one by one to alternate workers.
            scheduler.Inject(thread, wake: true);
        }
        else
        {
            spawner.PushLocal(thread);
        }
    }

    public void Woken(GreenThread thread, Worker? waker)
    {
        var index = thread.Home;
        if (index == GreenThread.Homeless)
        {
            if (waker is null)
            {
                scheduler.Inject(thread, wake: true);
                return;
            }

            // The thread is parked, so nothing else writes its home now.
            thread.Home = waker.Index;
            waker.PushRunNext(thread);
            return;
        }

        var home = scheduler.Workers[index];
        if (waker is null)
        {
            home.PushRemote(thread);
        }
        else if (home == waker || !thread.IsHeavy || home.IsListedIdle)
        {
            waker.PushRunNext(thread);
        }
        else
        {
            home.PushRemote(thread);
        }
    }

    /// <summary>As any wake-up: a light thread runs next on the waker, which then soon ends its turn or goes long.</summary>
    public void WokenAlongside(GreenThread thread, Worker? waker) => Woken(thread, waker);

    public void Yielded(GreenThread thread, Worker worker) => worker.PushLocal(thread);

    public void Overflowed(GreenThread thread, Worker worker, bool wake) => scheduler.Overflow(thread, wake);

    /// <summary>The thread's home becomes this worker; every <see cref="WeighInterval"/> turns, the first step is weighed.</summary>
    public long TurnStarting(GreenThread thread, Worker worker)
    {
        if (thread.Home != worker.Index && thread.Home != GreenThread.Homeless)
        {
            thread.Home = worker.Index;
        }

        if (--worker.TurnsUntilWeighed > 0)
        {
            return 0;
        }

        worker.TurnsUntilWeighed = WeighInterval;
        return Stopwatch.GetTimestamp();
    }

    /// <summary>Marks the thread heavy or light from the time its step took, before it parks, while its worker still owns it.</summary>
    public void Weighed(GreenThread thread, long ticks)
    {
        if (ticks > HeavyStep)
        {
            thread.IsHeavy = true;
        }
        else if (ticks < LightStep)
        {
            thread.IsHeavy = false;
        }
    }
}
