using System;

namespace ThreadIterators;

/// <summary>
/// Hears a green thread's end: the one seam through which a feature (a watch, a link) is told how a thread ended,
/// so that the core names none of them. The thread's <see cref="ThreadEnd"/> keeps its listeners in one intrusive
/// list and tells each once, after the end is decided and before joiners, waits and tasks see it (the steps are in
/// ThreadEnd.cs's header).
/// </summary>
/// <remarks>
/// Any thread. <see cref="NodeIn"/>'s node is read and written under the lock of the list's <see cref="ThreadEnd"/>,
/// or by its end alone once the end has taken the list; <see cref="TryClaim"/> may race with the listener's own
/// removal, which must take the listener the same way first; <see cref="ThreadEnded"/> is called outside every lock,
/// once, by whoever claimed the listener.
/// </remarks>
internal interface IExitListener
{
    /// <summary>
    /// Gets a value indicating whether telling this listener surely observes a fault (see <see cref="ThreadEnded"/>).
    /// Read right after a claim, under the end's lock: a fault a claimed listener will observe is then never tracked as
    /// unobserved, which spares a finalizable sentinel per supervised crash.
    /// </summary>
    bool ObservesFault { get; }

    /// <summary>
    /// Gets the node that strings this listener into <paramref name="thread"/>'s list. One listener may be in the lists
    /// of two threads (a link is), so each list has a node of its own, and the list says whose it walks.
    /// </summary>
    /// <param name="thread">The thread whose list is walked: one this listener was added to.</param>
    /// <returns>The listener's node in that list; default while it is in none.</returns>
    ref ExitListenerNode NodeIn(GreenThread thread);

    /// <summary>
    /// Takes the listener for a thread's end, so that a removal from now on fails: true for the one caller that gets
    /// it, false if a removal (or another thread's end) took it first. By the end under its lock, or by an adder that
    /// found the end decided.
    /// </summary>
    /// <returns>True if this call took the listener, and must tell it through <see cref="ThreadEnded"/>.</returns>
    bool TryClaim();

    /// <summary>
    /// Tells a listener its caller claimed that <paramref name="thread"/> has ended. Outside every lock; the end
    /// reads as decided (<see cref="GreenThread.IsCompleted"/>) but joiners, waits and tasks do not see it yet.
    /// </summary>
    /// <param name="thread">The thread that ended: one whose list held the listener.</param>
    /// <param name="outcome">How it ended.</param>
    /// <param name="exception">The exception that ended it, or null.</param>
    /// <returns>True if telling it observed a fault that <see cref="ObservesFault"/> did not promise (a message that
    /// went to a thread that traps exits), so that the end marks the fault observed.</returns>
    bool ThreadEnded(GreenThread thread, ThreadOutcome outcome, Exception? exception);
}
