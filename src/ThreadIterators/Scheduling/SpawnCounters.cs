using System.Runtime.InteropServices;

namespace ThreadIterators;

/// <summary>
/// The scheduler's live-thread count and id source, kept a cache line clear of every other field. Every spawn and
/// exit writes <see cref="Live"/>; every worker reads the stopping flag on each turn and the idle and spinning counts
/// on each push, so sharing a line with them made spawn-heavy work on two workers pay a cache miss per push. The
/// offsets are guessed: 64 bytes before and after the two counters.
/// </summary>
/// <remarks>Any thread, with interlocked operations.</remarks>
[StructLayout(LayoutKind.Explicit, Size = 144)]
internal struct SpawnCounters
{
    /// <summary>Threads spawned and not yet ended.</summary>
    [FieldOffset(64)]
    public long Live;

    /// <summary>The last thread id handed out, singly or in a worker's block.</summary>
    [FieldOffset(72)]
    public long LastId;
}
