using System.Threading;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// What the ParallelThreadRing members of one run share, as the green members share theirs: how many tokens retired
/// and how many hops were made in all.
/// </summary>
internal sealed class ParallelRingState
{
    /// <summary>Tokens that have made all their hops.</summary>
    private int _retired;

    /// <summary>Hops made, added up by each member as it ends.</summary>
    private long _hops;

    /// <summary>Gets the hops made by members that have ended.</summary>
    public long Hops => Interlocked.Read(ref _hops);

    /// <summary>Retires a token that has made its hops; true for the last of the ring's tokens.</summary>
    public bool Retire() => Interlocked.Increment(ref _retired) == ParallelThreadRing.Size;

    /// <summary>Adds a member's hops as it ends.</summary>
    public void Add(long hops) => Interlocked.Add(ref _hops, hops);
}
