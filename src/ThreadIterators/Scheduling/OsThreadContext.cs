using System;
using System.Runtime.CompilerServices;

namespace ThreadIterators;

/// <summary>
/// What the hot path needs to know about the calling OS thread: the worker it is, if any. Looked up once per send
/// and handed to the wake-up, so a send that wakes its receiver reads the thread static once.
/// </summary>
/// <remarks>Only the owning OS thread touches an instance.</remarks>
internal sealed class OsThreadContext
{
    /// <summary>The calling thread's context, once it has one.</summary>
    [ThreadStatic]
    private static OsThreadContext? t_current;

    internal OsThreadContext(Worker? worker) => Worker = worker;

    /// <summary>Gets the calling OS thread's context, creating it on first use.</summary>
    internal static OsThreadContext Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current ?? CreateCurrent();
    }

    /// <summary>Gets the calling OS thread's context if it has one, without creating it: null on a thread that never sent, spawned or received.</summary>
    internal static OsThreadContext? Existing => t_current;

    /// <summary>Gets the worker this OS thread is, or null.</summary>
    internal Worker? Worker { get; }

    /// <summary>
    /// Gets or sets the green thread whose <c>finally</c> blocks this OS thread is running for its scheduler's
    /// disposal, so <see cref="GreenThread.Current"/> names it there too: the disposing thread is not its worker,
    /// and may be a worker of another scheduler, running a green thread of its own.
    /// </summary>
    internal GreenThread? Stopping { get; set; }

    /// <summary>Makes <paramref name="context"/> the calling thread's context; a worker does this when it starts.</summary>
    internal static void SetCurrent(OsThreadContext? context) => t_current = context;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static OsThreadContext CreateCurrent() => t_current = new OsThreadContext(null);
}
