using System.Threading;

namespace ThreadIterators.Benchmarks.Peers.AkkaNet;

/// <summary>
/// What ParallelThreadRing's members share, as in the green and Task versions: the tokens retired, so the member that
/// retires the last one knows to start the stop round, and the hops made in all. Shared counters rather than messages
/// to the driver, so the run sends the same messages as the others.
/// </summary>
/// <param name="tokens">Tokens in flight at the start.</param>
internal sealed class ParallelRingTally(int tokens)
{
    private int _retired;

    private long _hops;

    /// <summary>Gets the hops made by the members that have ended.</summary>
    public long Hops => Interlocked.Read(ref _hops);

    /// <summary>Retires a token that has made its hops; true for the last one.</summary>
    public bool Retire() => Interlocked.Increment(ref _retired) == tokens;

    /// <summary>Adds a member's hops as it ends.</summary>
    public void Add(long hops) => Interlocked.Add(ref _hops, hops);
}
