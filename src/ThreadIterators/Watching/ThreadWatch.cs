using System;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A watch on a green thread (Erlang's monitor, Akka.NET's <c>Watch</c>): when the thread ends, however it ends, one
/// <see cref="ThreadExit"/> goes to the target the watcher chose. Made by <see cref="GreenThreadWatching.Watch"/>;
/// removed by <see cref="Remove"/>.
/// </summary>
/// <remarks>
/// <para>
/// A watch on a thread that has already ended sends its message at once. Several watches on one thread each send
/// their own; the message names the watch, so a watcher with many can tell them apart. A watch is kept by the watched
/// thread until it ends or the watch is removed; the watcher's end does not remove it (its message then goes where
/// any message to an ended receiver goes: to the dead letters).
/// </para>
/// <para>
/// The message counts as observing a fault: a thread that faults while watched is not reported through
/// <see cref="Scheduler.UnobservedFault"/>. Any thread.
/// </para>
/// </remarks>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class ThreadWatch : IExitListener
{
    /// <summary>The state of a watch that has neither sent its message nor been removed.</summary>
    private const int Active = 0;

    /// <summary>The state of a watch removed before its thread's end took it.</summary>
    private const int Removed = 1;

    /// <summary>The state of a watch its thread's end took: its message is sent, or on its way.</summary>
    private const int Fired = 2;

    /// <summary>Where the message goes; unbounded.</summary>
    private readonly IMessageTarget<ThreadExit> _target;

    /// <summary><see cref="Active"/>, then <see cref="Removed"/> or <see cref="Fired"/>, once, by a compare-and-swap.</summary>
    private int _state;

    /// <summary>The watch's node in its thread's list of exit listeners; guarded by the lock of the thread's end.</summary>
    private ExitListenerNode _node;

    internal ThreadWatch(GreenThread thread, IMessageTarget<ThreadExit> target)
    {
        Thread = thread;
        _target = target;
    }

    /// <summary>Gets the thread watched.</summary>
    public GreenThread Thread { get; }

    /// <summary>Gets a value indicating whether the watch has sent its message.</summary>
    public bool HasFired => Volatile.Read(ref _state) == Fired;

    /// <summary>
    /// Removes the watch (Erlang's <c>demonitor</c>): if this returns true, its message is never sent. Any thread;
    /// removing twice, or after the message was sent, returns false and does nothing.
    /// </summary>
    /// <returns>True if the watch was active and now never sends; false if it had sent its message (which is then in the target, or on its way there), or was removed before.</returns>
    public bool Remove()
    {
        if (Interlocked.CompareExchange(ref _state, Removed, Active) != Active)
        {
            return false;
        }

        Thread.RemoveExitListener(this);
        return true;
    }

    /// <inheritdoc/>
    public override string ToString() => $"Watch on {Thread} ({Volatile.Read(ref _state) switch { Active => "active", Removed => "removed", _ => "fired" }})";

    /// <summary>Gets a value indicating whether sending this watch's message observes a fault: unless its target only tidies up.</summary>
    bool IExitListener.ObservesFault => _target is not IUnobservingTarget;

    /// <inheritdoc/>
    ref ExitListenerNode IExitListener.NodeIn(GreenThread thread)
    {
        Debug.Assert(thread == Thread, "A watch is only in its thread's list.");
        return ref _node;
    }

    /// <summary>
    /// Takes the watch for its thread's end, so that a removal from now on fails; the message is sent by
    /// <see cref="IExitListener.ThreadEnded"/>. By the ending thread's worker under the lock of its end, so that a
    /// fault is known to be observed before it is tracked as unobserved; or by a watcher that found the thread ended.
    /// </summary>
    bool IExitListener.TryClaim() => Interlocked.CompareExchange(ref _state, Fired, Active) == Active;

    /// <summary>Sends the message of a watch claimed for its thread's end. Its observing a fault was counted at the claim.</summary>
    bool IExitListener.ThreadEnded(GreenThread thread, ThreadOutcome outcome, Exception? exception)
    {
        Deliver.To(_target, new ThreadExit(Thread, outcome, exception, this), Thread);
        return false;
    }
}
