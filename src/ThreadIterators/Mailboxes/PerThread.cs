using System;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Per-OS-thread caches. Kept in a non-generic class because the runtime inlines access to its thread statics;
/// thread statics of generic classes go through a much slower helper (measured: 15% of a ring hop).
/// </summary>
internal static class PerThread
{
    /// <summary>The last slot handed out by <see cref="AllocateSlot"/>.</summary>
    private static int s_lastSlot = -1;

    /// <summary>Gets or sets this thread's node stacks, one slot per message type (see <see cref="NodePool{T}"/>).</summary>
    [ThreadStatic]
    internal static object?[]? NodeStacks;

    /// <summary>Reserves a slot of <see cref="NodeStacks"/> for one message type.</summary>
    internal static int AllocateSlot() => Interlocked.Increment(ref s_lastSlot);
}
