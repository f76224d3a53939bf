using System;

namespace ThreadIterators.Samples.Supervision;

/// <summary>The crash a job causes in its fetcher; the supervisor's restart event reports the job from it.</summary>
internal sealed class JobCrashedException : Exception
{
    public JobCrashedException()
    {
    }

    public JobCrashedException(string message)
        : base(message)
    {
    }

    public JobCrashedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    internal JobCrashedException(Job job)
        : base($"job {job.Id} crashed its fetcher") => JobId = job.Id;

    /// <summary>Gets the job the fetcher was processing.</summary>
    internal int JobId { get; } = -1;
}
