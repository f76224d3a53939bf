namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>What one measured configuration runs on.</summary>
/// <param name="Implementation">The implementation of the workload.</param>
/// <param name="Workers">Scheduler workers; 0 for implementations that do not use a scheduler.</param>
/// <param name="Policy">The scheduling policy; ignored by implementations that do not use a scheduler.</param>
internal sealed record RunSetup(Implementation Implementation, int Workers, SchedulingPolicy Policy);
