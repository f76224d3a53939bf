using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// One OS thread's free message nodes, one stack per message type (see <see cref="NodePool{T}"/>). A worker owns
/// one and hands it to the receive path directly; other code finds the calling thread's through a thread static.
/// </summary>
/// <remarks>Only the owning OS thread touches an instance.</remarks>
internal sealed class NodeCache
{
    /// <summary>The last slot handed out by <see cref="AllocateSlot"/>.</summary>
    private static int s_lastSlot = -1;

    /// <summary>The calling thread's cache, once it has one.</summary>
    [ThreadStatic]
    private static NodeCache? t_current;

    /// <summary>Gets the calling OS thread's cache, creating it on first use.</summary>
    internal static NodeCache Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current ?? CreateCurrent();
    }

    /// <summary>Gets or sets the per-type stacks, indexed by the slot of <see cref="NodePool{T}"/>; grown on demand.</summary>
    internal object?[] Stacks { get; set; } = new object?[4];

    /// <summary>Reserves a slot of <see cref="Stacks"/> for one message type.</summary>
    internal static int AllocateSlot() => Interlocked.Increment(ref s_lastSlot);

    /// <summary>Makes <paramref name="cache"/> the calling thread's cache; a worker does this when it starts.</summary>
    internal static void SetCurrent(NodeCache? cache) => t_current = cache;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static NodeCache CreateCurrent() => t_current = new NodeCache();
}
