namespace ThreadIterators.Samples.Supervision;

/// <summary>One job: fetch <c>/jobs/{Id}</c>, which the server answers after <paramref name="DelayMs"/>; a crashing job makes its fetcher throw once it has the answer.</summary>
/// <param name="Id">The job's number, from 0.</param>
/// <param name="DelayMs">How long the server waits before it answers.</param>
/// <param name="Crashes">Whether processing the answer throws (a bug in the fetcher, as far as the supervisor knows).</param>
internal sealed record Job(int Id, int DelayMs, bool Crashes);
