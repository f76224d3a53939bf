namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// CountingActor's increment. Every increment of the workload is 1, so one immutable instance is told N times, and
/// an increment allocates no message; the counter still adds the amount it carries.
/// </summary>
/// <param name="Amount">What to add to the count.</param>
internal sealed record Increment(long Amount)
{
    /// <summary>Gets the increment of one, the only one the workload sends.</summary>
    public static Increment One { get; } = new(1);
}
