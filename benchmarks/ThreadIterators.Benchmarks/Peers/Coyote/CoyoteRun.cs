using System;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>What one Coyote testing engine run did: how many iterations it ran, and the first bug, if it found one.</summary>
internal sealed record CoyoteRun(int Iterations, string? Bug, TimeSpan Elapsed)
{
    public bool Failed => this.Bug is not null;
}
