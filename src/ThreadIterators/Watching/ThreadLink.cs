using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A link between two green threads (<see cref="GreenThreadWatching.Link"/>): one object, an exit listener
/// (<see cref="IExitListener"/>) in both threads' lists, told once by the first of the two to end, or cut by
/// <see cref="GreenThreadWatching.Unlink"/>; never both.
/// </summary>
/// <remarks>
/// Any thread; the state changes once, by a compare-and-swap. Each node is guarded by the lock of its thread's end.
/// </remarks>
internal sealed class ThreadLink : IExitListener
{
    /// <summary>The state of a link neither end has acted on, nor an unlink cut.</summary>
    private const int Active = 0;

    /// <summary>The state of a link one end acted on, or an unlink cut.</summary>
    private const int Done = 1;

    /// <summary><see cref="Active"/>, then <see cref="Done"/>, once, by a compare-and-swap.</summary>
    private int _state;

    /// <summary>The link's node in <see cref="First"/>'s list of exit listeners.</summary>
    private ExitListenerNode _inFirst;

    /// <summary>The link's node in <see cref="Second"/>'s list of exit listeners.</summary>
    private ExitListenerNode _inSecond;

    internal ThreadLink(GreenThread first, GreenThread second)
    {
        First = first;
        Second = second;
    }

    /// <summary>Gets the thread the link was made from.</summary>
    internal GreenThread First { get; }

    /// <summary>Gets the thread the link was made to.</summary>
    internal GreenThread Second { get; }

    /// <summary>
    /// Gets a value indicating that telling a link does not surely observe a fault: whether the other thread traps
    /// exits, which makes its message observe it, is read only as the link acts (<see cref="IExitListener.ThreadEnded"/>).
    /// </summary>
    bool IExitListener.ObservesFault => false;

    /// <summary>Gets the other end of the link from <paramref name="thread"/>.</summary>
    internal GreenThread Other(GreenThread thread) => thread == First ? Second : First;

    /// <summary>Takes the link for acting on it or cutting it; true for the one caller that gets it.</summary>
    internal bool TryTake() => Interlocked.CompareExchange(ref _state, Done, Active) == Active;

    /// <inheritdoc/>
    ref ExitListenerNode IExitListener.NodeIn(GreenThread thread)
    {
        Debug.Assert(thread == First || thread == Second, "A link is only in its two threads' lists.");
        return ref thread == First ? ref _inFirst : ref _inSecond;
    }

    /// <inheritdoc/>
    bool IExitListener.TryClaim() => TryTake();

    /// <summary>
    /// Acts on the end of <paramref name="thread"/> towards the other thread: drops the link from the other's list,
    /// then stops the other or, if it traps exits, sends it a <see cref="ThreadExit"/>. True if a message was sent.
    /// </summary>
    bool IExitListener.ThreadEnded(GreenThread thread, ThreadOutcome outcome, Exception? exception)
    {
        var other = Other(thread);
        other.RemoveExitListener(this);
        return GreenThreadWatching.HearLinkedExit(other, new ThreadExit(thread, outcome, exception, null));
    }
}
