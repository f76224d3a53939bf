using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

// A green thread's life as a state machine, checked in DEBUG builds at every step of the park/wake protocol; in
// Release the field does not exist and the calls compile away. The steps:
//   New      -> Queued    spawned and placed (Scheduler.Spawn).
//   Queued   -> Running   a worker starts a turn of it (Worker.RunTurn).
//   Running  -> Parking   it is about to resume from or park on an event, or to give up its turn: from here on a
//                         waker may take it, on any OS thread.
//   Parking  -> Queued    a waker made it ready (Scheduler.Ready, ReadyAlongside, Worker.GiveUpTurn).
//   Parking  -> Running   the event did not park it after all, and its worker goes on running it.
//   Running  -> Ended     its body ended or faulted (Scheduler.Exit); any state but Running -> Ended when its scheduler
//                         disposes it. A wake-up that arrives after the end is ignored, as the worker ignores it.
// Anything else is a runtime bug: above all Queued or Running where Running is expected, which is one thread run
// by two workers at once, the bug this project has had most.
#pragma warning disable CA1822 // In Release the checks' bodies are empty (they read the DEBUG-only field), and every call compiles away.
public sealed partial class GreenThread
{
#if DEBUG
    /// <summary>Where the thread is in its life, one of the <see cref="Life"/> values; DEBUG builds only.</summary>
    private int _life;
#endif

    /// <summary>The states of a green thread's life (see the file's header).</summary>
    internal enum Life
    {
        /// <summary>Spawned, not yet placed.</summary>
        New,

        /// <summary>In a run queue, a run-next slot or an inbound or inject queue.</summary>
        Queued,

        /// <summary>In a turn on one worker.</summary>
        Running,

        /// <summary>Resuming from, or parking on, an event: a waker may take it now.</summary>
        Parking,

        /// <summary>Ended.</summary>
        Ended,
    }

    /// <summary>Checks and records that the thread was placed in a queue by <paramref name="by"/>.</summary>
    [Conditional("DEBUG")]
    internal void AssertQueued(string by)
    {
#if DEBUG
        while (true)
        {
            var life = (Life)Volatile.Read(ref _life);
            if (life == Life.Ended)
            {
                return;
            }

            Debug.Assert(
                life is Life.New or Life.Parking,
                $"{this} was made ready by {by} while {life}: a thread is queued only when new or parked, once per wake-up.");
            if (Interlocked.CompareExchange(ref _life, (int)Life.Queued, (int)life) == (int)life)
            {
                return;
            }
        }
#endif
    }

    /// <summary>Checks and records that <paramref name="worker"/> starts a turn of the thread.</summary>
    [Conditional("DEBUG")]
    internal void AssertRunning(Worker worker)
    {
#if DEBUG
        var life = (Life)Interlocked.CompareExchange(ref _life, (int)Life.Running, (int)Life.Queued);
        Debug.Assert(
            life == Life.Queued,
            $"Worker {worker.Index} started a turn of {this} while it was {life}: {(life == Life.Running ? "run by two workers at once" : "it was never queued")}.");
#endif
    }

    /// <summary>Checks and records that the running thread is about to resume from or park on an event, or to give up its turn.</summary>
    [Conditional("DEBUG")]
    internal void AssertParking(Worker worker)
    {
#if DEBUG
        var life = (Life)Interlocked.CompareExchange(ref _life, (int)Life.Parking, (int)Life.Running);
        Debug.Assert(life == Life.Running, $"Worker {worker.Index} parks {this}, which is {life}, not running.");
#endif
    }

    /// <summary>Checks and records that an event did not park the thread, so <paramref name="worker"/> goes on running it.</summary>
    [Conditional("DEBUG")]
    internal void AssertStillRunning(Worker worker)
    {
#if DEBUG
        var life = (Life)Interlocked.CompareExchange(ref _life, (int)Life.Running, (int)Life.Parking);
        Debug.Assert(
            life == Life.Parking,
            $"{this} was {life} when its event on worker {worker.Index} did not park it: a waker made it ready while that worker still ran it, so two workers would run it.");
#endif
    }

    /// <summary>Checks and records the thread's end: by its own worker, or by its scheduler's disposal.</summary>
    [Conditional("DEBUG")]
    internal void AssertEnded(bool byDisposal)
    {
#if DEBUG
        var life = (Life)Interlocked.Exchange(ref _life, (int)Life.Ended);
        Debug.Assert(
            byDisposal ? life is not (Life.Running or Life.Ended) : life is Life.Running or Life.Parking,
            $"{this} ended {(byDisposal ? "by disposal" : "on a worker")} while {life}.");
#endif
    }
}
