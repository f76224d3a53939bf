using System.Collections.Generic;

namespace ThreadIterators.Samples.Supervision;

/// <summary>What a run did: how every job ended, what the supervisor did, and the meter's readings of the scheduler.</summary>
/// <param name="Jobs">The jobs given.</param>
/// <param name="Outcomes">Jobs by outcome.</param>
/// <param name="Unreported">Jobs no result came for (should be none).</param>
/// <param name="Duplicated">Jobs more than one result came for (should be none).</param>
/// <param name="Restarts">Restarts the supervisor made.</param>
/// <param name="GaveUp">Whether the supervisor gave up.</param>
/// <param name="Metrics">The <c>ThreadIterators</c> meter's readings of the scheduler, by instrument and tag.</param>
internal sealed record JobReport(
    int Jobs,
    IReadOnlyDictionary<JobOutcome, int> Outcomes,
    int Unreported,
    int Duplicated,
    long Restarts,
    bool GaveUp,
    IReadOnlyList<(string Instrument, string Tags, long Value)> Metrics)
{
    /// <summary>Gets a value indicating whether every job ended exactly once and every crash was restarted.</summary>
    public bool Accounted => Unreported == 0 && Duplicated == 0 && !GaveUp && Restarts == Outcomes[JobOutcome.Crashed];
}
