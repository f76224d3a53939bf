using System;
using System.Collections.Generic;

namespace ThreadIterators.Benchmarks.Peers.Coyote;

/// <summary>The five classic bugs of samples/Testing as Coyote test actors, in the order of <c>ClassicBugs.All</c>.</summary>
internal static class CoyoteBugs
{
    public static IReadOnlyList<Type> All { get; } =
    [
        typeof(CoyoteLostUpdate.Test),
        typeof(CoyoteOrderViolation.Test),
        typeof(CoyotePhilosophers.Test),
        typeof(CoyoteTimeoutRetry.Test),
        typeof(CoyoteRestartLoss.Test),
    ];
}
