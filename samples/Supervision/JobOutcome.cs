namespace ThreadIterators.Samples.Supervision;

/// <summary>How a job ended; every job ends in exactly one of these.</summary>
internal enum JobOutcome
{
    /// <summary>Fetched in time, and the answer checked.</summary>
    Completed,

    /// <summary>The server did not answer within the per-job timeout; the request was cancelled.</summary>
    TimedOut,

    /// <summary>Its fetcher crashed on it, and the supervisor restarted the fetcher.</summary>
    Crashed,

    /// <summary>The request failed (an HTTP error), or the answer was wrong.</summary>
    Failed,
}
