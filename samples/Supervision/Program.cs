using System;
using System.Globalization;
using System.Linq;
using ThreadIterators.Samples.Supervision;

// A job runner under a supervisor: fetchers on green threads fetch jobs from a local HTTP server with a per-job
// timeout; 1% of the jobs crash their fetcher, which the supervisor restarts. Prints how every job ended, the
// supervisor's restarts, and the ThreadIterators meter's readings. Exits 1 if any job was lost or reported twice.
JobRunnerOptions options;
try
{
    options = JobRunnerOptions.Parse(args);
}
catch (ArgumentException bad)
{
    Console.Error.WriteLine(bad.Message);
    return 2;
}

await using var server = await JobServer.StartAsync();
Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Job runner: {options.Jobs:N0} jobs, {options.Fetchers} fetchers on {options.Workers} workers, timeout {options.JobTimeout.TotalMilliseconds:F0} ms per job, {options.CrashPercent}% crash, {options.SlowPercent}% too slow; server {server.Address}"));
var started = DateTime.UtcNow;
var report = new JobRunner(options, server.Address).Run();
var elapsed = DateTime.UtcNow - started;

var o = report.Outcomes;
Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Jobs: {report.Jobs:N0} = {o[JobOutcome.Completed]:N0} completed + {o[JobOutcome.TimedOut]:N0} timed out + {o[JobOutcome.Crashed]:N0} crashed + {o[JobOutcome.Failed]:N0} failed, in {elapsed.TotalSeconds:F2} s"));
Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Unreported: {report.Unreported}, reported twice: {report.Duplicated}; supervisor restarts: {report.Restarts}, gave up: {(report.GaveUp ? "yes" : "no")}"));
Console.WriteLine("Metrics (meter ThreadIterators, scheduler 'jobs'):");
var width = report.Metrics.Max(metric => metric.Instrument.Length + metric.Tags.Length + 3);
foreach (var (instrument, tags, value) in report.Metrics)
{
    var name = tags.Length == 0 ? instrument : $"{instrument} [{tags}]";
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {name.PadRight(width)} {value,12:N0}"));
}

Console.WriteLine(report.Accounted ? "Every job accounted for once; every crash restarted." : "LOST OR DUPLICATED JOBS, or the supervisor gave up.");
return report.Accounted ? 0 : 1;
