using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// What the hot path needs to know about the calling OS thread: the worker it is, if any, and its free message
/// nodes, one stack per message type (see <see cref="NodePool{T}"/>). One thread static reaches both, so a send
/// that wakes its receiver looks up the thread once.
/// </summary>
/// <remarks>Only the owning OS thread touches an instance.</remarks>
internal sealed class ThreadContext
{
    /// <summary>The last slot handed out by <see cref="AllocateSlot"/>.</summary>
    private static int s_lastSlot = -1;

    /// <summary>The calling thread's context, once it has one.</summary>
    [ThreadStatic]
    private static ThreadContext? t_current;

    internal ThreadContext(Worker? worker) => Worker = worker;

    /// <summary>Gets the calling OS thread's context, creating it on first use.</summary>
    internal static ThreadContext Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current ?? CreateCurrent();
    }

    /// <summary>Gets the worker this OS thread is, or null.</summary>
    internal Worker? Worker { get; }

    /// <summary>Gets or sets the per-type node stacks, indexed by the slot of <see cref="NodePool{T}"/>; grown on demand.</summary>
    internal object?[] NodeStacks { get; set; } = new object?[4];

    /// <summary>Reserves a slot of <see cref="NodeStacks"/> for one message type.</summary>
    internal static int AllocateSlot() => Interlocked.Increment(ref s_lastSlot);

    /// <summary>Makes <paramref name="context"/> the calling thread's context; a worker does this when it starts.</summary>
    internal static void SetCurrent(ThreadContext? context) => t_current = context;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ThreadContext CreateCurrent() => t_current = new ThreadContext(null);
}
