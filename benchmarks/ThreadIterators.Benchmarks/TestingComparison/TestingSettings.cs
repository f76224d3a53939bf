namespace ThreadIterators.Benchmarks.TestingComparison;

/// <summary>How much a <c>testing</c> run measures.</summary>
/// <param name="Seeds">Explorations per program, strategy and side, each from a different seed.</param>
/// <param name="Iterations">The most iterations one exploration may take to find a bug.</param>
/// <param name="Rounds">Rounds of the executions-per-second measurement.</param>
/// <param name="OursRuns">Iterations of a fixed program per round, ours.</param>
/// <param name="CoyoteRuns">Iterations of a fixed program per round, Coyote's (it runs slower, so fewer take as long).</param>
internal sealed record TestingSettings(int Seeds, int Iterations, int Rounds, int OursRuns, int CoyoteRuns);
