namespace ThreadIterators.Samples.Supervision;

/// <summary>What became of one job, sent to the collector.</summary>
/// <param name="JobId">The job.</param>
/// <param name="Outcome">How it ended.</param>
internal sealed record JobResult(int JobId, JobOutcome Outcome);
