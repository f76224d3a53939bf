using System.Collections.Generic;
using ThreadIterators;

namespace ThreadIterators.Samples.Testing;

/// <summary>
/// A supervisor restarts a worker that crashes; the worker's mailbox outlives it, so a restarted worker takes the
/// queued jobs. The worker needs its configuration, which another thread loads. Buggy: a job that arrives before the
/// configuration crashes the worker after it took the job from the mailbox, and the restart does not bring that job
/// back: it is lost. Fixed: the supervisor starts the worker once the configuration is loaded (it joins the loader).
/// </summary>
public static class RestartLoss
{
    private const int Jobs = 3;

    private const int Stop = -1;

    /// <summary>The buggy test.</summary>
    public static IEnumerable<Event> Buggy(Scheduler scheduler) => Run(scheduler, waitsForLoader: false);

    /// <summary>The fixed test.</summary>
    public static IEnumerable<Event> Fixed(Scheduler scheduler) => Run(scheduler, waitsForLoader: true);

    private static IEnumerable<Event> Run(Scheduler scheduler, bool waitsForLoader)
    {
        var jobs = new Mailbox<int>("jobs") { OutlivesReceiver = true };
        var configured = false;
        var processed = 0;
        var loader = scheduler.Spawn(Load(), "configuration loader");
        var supervisor = scheduler.Spawn(Supervise(), "supervisor");
        for (var job = 1; job <= Jobs; job++)
        {
            jobs.Send(job);
            yield return Event.Yield;
        }

        jobs.Send(Stop);
        yield return loader.Exited;
        yield return supervisor.Exited;
        ClassicBugs.Expect(processed == Jobs, $"{processed} of {Jobs} jobs processed: a restart lost the rest");

        IEnumerable<Event> Supervise()
        {
            if (waitsForLoader)
            {
                yield return loader.Exited;
            }

            for (var restarts = 0; restarts <= 3; restarts++)
            {
                var worker = scheduler.Spawn(Work(), "worker");
                yield return worker.Ended;
                if (worker.Outcome != ThreadOutcome.Faulted)
                {
                    yield break;
                }
            }
        }

        IEnumerable<Event> Load()
        {
            yield return Event.Yield;
            configured = true;
        }

        IEnumerable<Event> Work()
        {
            var job = jobs.Recv();
            while (true)
            {
                yield return job;
                if (job.Value == Stop)
                {
                    yield break;
                }

                ClassicBugs.Expect(configured, $"job {job.Value} arrived before the configuration");
                processed++;
            }
        }
    }
}
