namespace ThreadIterators.Tests;

/// <summary>
/// Tests that read process-wide allocation or heap counters; they run alone so no other test's allocations count.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MeasurementsRunAlone
{
    public const string Name = "Measurements (run alone)";
}
