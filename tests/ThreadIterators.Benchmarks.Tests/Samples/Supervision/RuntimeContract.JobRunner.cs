using System;
using System.Linq;
using System.Threading.Tasks;
using ThreadIterators.Samples.Supervision;

namespace ThreadIterators.Tests;

/// <summary>
/// The supervision sample's job runner under every configuration, against its real local HTTP server: every job ends
/// exactly once, each crashing job crashes its fetcher and is restarted, each slow job times out, and the meter's
/// readings agree with what the run did.
/// </summary>
public abstract partial class RuntimeContract
{
    [Fact]
    public async Task JobRunner_EveryJobEndsOnce_CrashesAreRestarted_SlowJobsTimeOut_AndTheMetricsAgree()
    {
        // A timeout long enough that only the slow jobs (answered after four times it) can miss it on a loaded machine.
        var options = new JobRunnerOptions
        {
            Jobs = 300,
            Fetchers = 8,
            Workers = WorkerCount,
            Policy = Policy,
            JobTimeout = TimeSpan.FromSeconds(2),
            CrashPercent = 3,
            SlowPercent = 2,
            Seed = 7,
        };
        var jobs = JobRunner.MakeJobs(options);
        var crashing = jobs.Count(job => job.Crashes);
        var slow = jobs.Count(job => job.DelayMs > options.JobTimeout.TotalMilliseconds);
        Assert.True(crashing > 0 && slow > 0, $"the seed gives {crashing} crashing and {slow} slow jobs");

        await using var server = await JobServer.StartAsync();
        // Its own OS thread: the run blocks its caller, and a blocked thread-pool thread would slow the HTTP
        // requests' completions, which run there.
        var report = await Task.Factory.StartNew(() => new JobRunner(options, server.Address).Run(), TaskCreationOptions.LongRunning);
        var outcomes = string.Join(", ", report.Outcomes.Select(pair => $"{pair.Key} {pair.Value}"));

        Assert.Equal(0, report.Unreported);
        Assert.Equal(0, report.Duplicated);
        Assert.False(report.GaveUp);
        Assert.True(report.Outcomes[JobOutcome.Crashed] == crashing && report.Outcomes[JobOutcome.TimedOut] == slow, $"{crashing} crashing and {slow} slow jobs; outcomes {outcomes}");
        Assert.Equal(0, report.Outcomes[JobOutcome.Failed]);
        Assert.Equal(options.Jobs - crashing - slow, report.Outcomes[JobOutcome.Completed]);
        Assert.Equal(crashing, report.Restarts);
        Assert.True(report.Accounted);

        // The supervisor, the collector, the producer, the fetchers and one more fetcher per restart.
        long Metric(string instrument, string tags = "") => report.Metrics.Single(m => m.Instrument == instrument && m.Tags == tags).Value;
        Assert.Equal(crashing, Metric("threaditerators.supervisor.restarts"));
        Assert.Equal(0, Metric("threaditerators.supervisor.give_ups"));
        Assert.Equal(3 + options.Fetchers + crashing, Metric("threaditerators.threads.spawned"));
        Assert.Equal(crashing, Metric("threaditerators.threads.ended", "outcome=faulted"));
        Assert.Equal(3 + options.Fetchers, Metric("threaditerators.threads.ended", "outcome=completed"));
        Assert.Equal(0, Metric("threaditerators.threads.live"));

        // Each job's result, and the jobs the producer put into the queue.
        Assert.True(Metric("threaditerators.messages.sent") >= 2 * options.Jobs, "fewer messages counted than the jobs and their results");
    }
}
