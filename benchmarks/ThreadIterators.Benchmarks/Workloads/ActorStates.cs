using System;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The private state of the cache-affinity actors: one array per actor. Made once per actor count and size and kept,
/// so runs do not measure allocating (up to 768 MB) and every run, warm-up included, touches the same memory.
/// </summary>
public sealed class ActorStates
{
    private static ActorStates? s_last;

    private ActorStates(int actors, long bytes)
    {
        Bytes = bytes;
        State = new long[actors][];
        var longs = (int)Math.Max(1, bytes / sizeof(long));
        for (var i = 0; i < actors; i++)
        {
            State[i] = new long[longs];
        }
    }

    /// <summary>Gets the number of actors.</summary>
    public int Count => State.Length;

    /// <summary>Gets the bytes of state per actor.</summary>
    public long Bytes { get; }

    /// <summary>Gets each actor's state.</summary>
    internal long[][] State { get; }

    /// <summary>
    /// Gets the states for <paramref name="actors"/> actors of <paramref name="bytes"/> bytes each: the ones made
    /// last if they match, else new ones (the old ones are dropped first, so two big sets are never held at once).
    /// </summary>
    public static ActorStates For(int actors, long bytes)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(actors, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(bytes, sizeof(long));
        if (s_last is { } last && last.Count == actors && last.Bytes == bytes)
        {
            return last;
        }

        s_last = null;
        GC.Collect();
        return s_last = new ActorStates(actors, bytes);
    }

    /// <summary>The seed of actor <paramref name="index"/>'s random stream; never zero, which xorshift cannot leave.</summary>
    internal static ulong Seed(int index) => ((ulong)(index + 1) * 0x9E3779B97F4A7C15UL) | 1;
}
