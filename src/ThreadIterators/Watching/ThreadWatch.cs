using System.Diagnostics;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// A watch on a green thread (Erlang's monitor, Akka.NET's <c>Watch</c>): when the thread ends, however it ends, one
/// <see cref="ThreadExit"/> goes to the target the watcher chose. Made by <see cref="GreenThread.Watch"/>; removed
/// by <see cref="Remove"/>.
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
public sealed class ThreadWatch
{
    private const int Active = 0;
    private const int Removed = 1;
    private const int Fired = 2;

    private readonly IMessageTarget<ThreadExit> _target;

    /// <summary><see cref="Active"/>, then <see cref="Removed"/> or <see cref="Fired"/>, once, by a compare-and-swap.</summary>
    private int _state;

    /// <summary>
    /// Gets or sets the watch before this one in its thread's list: intrusive, since a list of references would cost
    /// a thread watched many times about 26 more bytes per watch in the arrays its growth leaves behind. Guarded by
    /// the thread's exit event's lock.
    /// </summary>
    internal ThreadWatch? Previous { get; set; }

    /// <summary>Gets or sets the watch after this one in its thread's list; see <see cref="Previous"/>.</summary>
    internal ThreadWatch? Next { get; set; }

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

        Thread.ForgetWatch(this);
        return true;
    }

    /// <inheritdoc/>
    public override string ToString() => $"Watch on {Thread} ({Volatile.Read(ref _state) switch { Active => "active", Removed => "removed", _ => "fired" }})";

    /// <summary>Sends the message unless the watch was removed; true if it sent to a target that observes a fault. The watcher on an ended thread; once.</summary>
    internal bool TryFire(ThreadOutcome outcome, System.Exception? exception)
    {
        if (!TryClaim())
        {
            return false;
        }

        Send(outcome, exception);
        return Observes;
    }

    /// <summary>
    /// Takes the watch for its thread's end, so that a removal from now on fails; the message is sent by
    /// <see cref="Send"/>. The ending thread's worker, under the exit event's lock, so that a fault is known to be
    /// observed before it is tracked as unobserved.
    /// </summary>
    internal bool TryClaim() => Interlocked.CompareExchange(ref _state, Fired, Active) == Active;

    /// <summary>Gets a value indicating whether sending this watch's message observes a fault.</summary>
    internal bool Observes => _target is not IUnobservingTarget;

    /// <summary>Sends the message of a watch claimed by <see cref="TryClaim"/>.</summary>
    internal void Send(ThreadOutcome outcome, System.Exception? exception) =>
        Deliver.To(_target, new ThreadExit(Thread, outcome, exception, this), Thread);
}
