using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;
using ThreadIterators.Supervision;

namespace ThreadIterators.Samples.Supervision;

/// <summary>
/// Runs the jobs: a producer puts them into a bounded shared queue; fetchers, green threads under a one-for-one
/// supervisor, each take a job, fetch it from the server with a per-job timeout, and report the result to a collector.
/// A crashing job crashes its fetcher; the supervisor restarts it, and its restart event reports the job as crashed,
/// so every job is accounted for exactly once.
/// </summary>
internal sealed class JobRunner(JobRunnerOptions options, Uri server)
{
    /// <summary>Room in the job queue: the producer waits while the fetchers are this far behind.</summary>
    private const int QueueCapacity = 64;

    private readonly SharedMailbox<Job> _queue = new(QueueCapacity, "jobs");

    private readonly Mailbox<JobResult> _results = new("results");

    public JobReport Run()
    {
        var jobs = MakeJobs(options);
        using var http = new HttpClient { BaseAddress = server, Timeout = System.Threading.Timeout.InfiniteTimeSpan };
        using var stop = new CancellationTokenSource();
        var scheduler = new Scheduler(new SchedulerOptions { WorkerCount = options.Workers, Policy = options.Policy, Name = "jobs" });
        try
        {
            var supervisor = new Supervisor(
                new SupervisorOptions { Name = "fetchers", Strategy = SupervisionStrategy.OneForOne, MaxRestarts = 50, Period = TimeSpan.FromSeconds(1) },
                Enumerable.Range(0, options.Fetchers).Select(i => new ChildSpec($"fetcher {i}", token => Fetch(http, token))
                {
                    // A fetcher that ends normally has found the queue completed: it is not restarted.
                    Restart = RestartType.Transient,
                    Shutdown = TimeSpan.FromSeconds(1),
                }));
            var gaveUp = false;
            supervisor.Restarted += (_, restarted) =>
            {
                // Raised on the supervisor's thread once the fetcher runs again: the crashed job gets its result here.
                if (restarted.Exit.Exception is JobCrashedException crash)
                {
                    _results.Send(new JobResult(crash.JobId, JobOutcome.Crashed));
                }
            };
            supervisor.GaveUp += (_, _) => gaveUp = true;

            var supervising = supervisor.Start(scheduler, stop.Token);
            var collecting = scheduler.Spawn(Collect(jobs.Length, out var outcomes, out var reported), "collector");
            var producing = scheduler.Spawn(Produce(jobs), "producer");

            // Every job has its result, or something was lost (the deadline is far beyond any run's length), or the
            // supervisor gave up and no fetcher is left to finish the jobs.
            var deadline = TimeSpan.FromMinutes(5) + (options.JobTimeout * (jobs.Length / options.Fetchers));
            var allReported = Task.WaitAny([collecting.AsTask(), supervising.AsTask()], deadline) == 0;
            stop.Cancel();
            try
            {
                if (!supervising.Wait(TimeSpan.FromSeconds(30)))
                {
                    throw new InvalidOperationException("The supervisor did not shut its fetchers down within 30 s.");
                }
            }
            catch (SupervisorGaveUpException)
            {
                // Reported through GaveUp; the report says so.
            }

            if (!allReported)
            {
                // Nothing will finish them now: the producer may wait for room, the collector for results.
                producing.Stop("the run is over");
                collecting.Stop("the run is over");
            }

            if (!scheduler.WaitForAll(TimeSpan.FromSeconds(30)))
            {
                throw new InvalidOperationException($"{scheduler.LiveThreadCount} green threads were still live 30 s after the shutdown.");
            }

            var metrics = MeterSnapshot.Read($"{scheduler.Name}#{scheduler.Number.ToString(CultureInfo.InvariantCulture)}");
            var counts = Enum.GetValues<JobOutcome>().ToDictionary(outcome => outcome, outcome => outcomes[(int)outcome]);
            var unreported = reported.Count(times => times == 0);
            var duplicated = reported.Count(times => times > 1);
            if (!allReported && unreported == 0 && !gaveUp)
            {
                throw new InvalidOperationException("The collector did not finish, yet every job has a result.");
            }

            return new JobReport(jobs.Length, counts, unreported, duplicated, supervisor.RestartCount, gaveUp, metrics);
        }
        finally
        {
            scheduler.Dispose();
        }
    }

    /// <summary>The jobs of a run, the same for the same options.</summary>
    internal static Job[] MakeJobs(JobRunnerOptions options)
    {
        var random = new Random(options.Seed);
        var slowDelay = (int)(options.JobTimeout.TotalMilliseconds * 4);
        return Enumerable.Range(0, options.Jobs).Select(id =>
        {
#pragma warning disable CA5394 // Not for security: the jobs' mix, repeatable from the seed.
            var slow = random.NextDouble() * 100 < options.SlowPercent;
            var crashes = !slow && random.NextDouble() * 100 < options.CrashPercent;
            return new Job(id, slow ? slowDelay : random.Next(0, 3), crashes);
#pragma warning restore CA5394
        }).ToArray();
    }

    private IEnumerable<Event> Produce(Job[] jobs)
    {
        foreach (var job in jobs)
        {
            // Waits while the queue is full.
            yield return _queue.Put(job);
        }

        _queue.Complete();
    }

    /// <summary>A fetcher: one job at a time, each bounded by the per-job timeout; ends when the queue is completed and drained.</summary>
    private IEnumerable<Event> Fetch(HttpClient http, CancellationToken stop)
    {
        var take = _queue.CreateReceiveEvent();
        while (!stop.IsCancellationRequested)
        {
            yield return take;
            if (take.IsCompleted)
            {
                yield break;
            }

            var job = take.Value;
            using var cancel = CancellationTokenSource.CreateLinkedTokenSource(stop);
            var fetch = http.GetStringAsync(new Uri($"jobs/{job.Id}?delay={job.DelayMs}", UriKind.Relative), cancel.Token).AsEvent().WithTimeout(options.JobTimeout);
            yield return fetch;
            if (fetch.TimedOut)
            {
                // The request is abandoned, not left running: the server sees it cancelled.
                cancel.Cancel();
                _results.Send(new JobResult(job.Id, JobOutcome.TimedOut), CancellationToken.None);
                continue;
            }

            string answer;
            try
            {
                answer = fetch.Inner.Result;
            }
            catch (HttpRequestException)
            {
                _results.Send(new JobResult(job.Id, JobOutcome.Failed), CancellationToken.None);
                continue;
            }

            if (job.Crashes)
            {
                // Let it crash: the supervisor restarts this fetcher, and reports the job.
                throw new JobCrashedException(job);
            }

            var right = long.TryParse(answer, CultureInfo.InvariantCulture, out var value) && value == JobServer.AnswerFor(job.Id);
            _results.Send(new JobResult(job.Id, right ? JobOutcome.Completed : JobOutcome.Failed), CancellationToken.None);
        }
    }

    /// <summary>Receives one result per job, counting them by outcome and noting how often each job was reported.</summary>
    private IEnumerable<Event> Collect(int jobs, out int[] outcomes, out int[] reported)
    {
        outcomes = new int[Enum.GetValues<JobOutcome>().Length];
        reported = new int[jobs];
        return Receive(outcomes, reported);

        IEnumerable<Event> Receive(int[] byOutcome, int[] times)
        {
            var next = _results.Recv();
            for (var i = 0; i < jobs; i++)
            {
                yield return next;
                byOutcome[(int)next.Value.Outcome]++;
                times[next.Value.JobId]++;
            }
        }
    }
}
