using System;

namespace ThreadIterators;

/// <summary>
/// Points where tests can stop a worker inside a protocol to force an interleaving that timing alone almost never
/// produces. Off unless the process sets the AppContext switch <c>ThreadIterators.EnableTestHooks</c>; then
/// <see cref="Enabled"/> is a constant false for the JIT and the hooks cost nothing.
/// </summary>
/// <remarks>Any thread.</remarks>
internal static class TestHooks
{
    /// <summary>Whether the hooks below are called at all; fixed at start-up.</summary>
    internal static readonly bool Enabled = AppContext.TryGetSwitch("ThreadIterators.EnableTestHooks", out var enabled) && enabled;

    /// <summary>
    /// Called by a receiver's worker right after its park exchange succeeded (the argument is the mailbox), before it
    /// decides what the exchange meant. From this moment a sender may already have woken the receiver elsewhere.
    /// </summary>
    internal static Action<object>? AfterParkExchange { get; set; }

    /// <summary>
    /// Called by a sender that found a mailbox's segment full, before it freezes the segment and links a larger one
    /// (the argument is the mailbox). Meanwhile the receiver may drain the full segment and park on it.
    /// </summary>
    internal static Action<object>? BeforeGrow { get; set; }

    /// <summary>
    /// Called by a sender that grew a mailbox, right after it froze the full segment (the argument is the mailbox).
    /// Meanwhile the receiver may drain the frozen segment and give it to the pool, and other senders send.
    /// </summary>
    internal static Action<object>? AfterFreeze { get; set; }

    /// <summary>
    /// Called by a sender right after it read the mailbox's tail segment, before it appends to it (the argument is
    /// the mailbox). Meanwhile that segment may be frozen, drained, pooled and handed to another mailbox.
    /// </summary>
    internal static Action<object>? AfterTailRead { get; set; }

    /// <summary>
    /// Called by a sender on the slow path right before each append it tries there (the argument is the mailbox): after
    /// it created the first segment or grew a full one, when it may owe the receiver a wake-up. Meanwhile the mailbox
    /// may be completed.
    /// </summary>
    internal static Action<object>? BeforeSlowAppend { get; set; }

    /// <summary>
    /// Called by a sender that took the receiver's park mark, before it reads which thread to wake (the argument is
    /// the mailbox). Meanwhile the scheduler may be disposed and the mailbox abandoned.
    /// </summary>
    internal static Action<object>? BeforeWakeRead { get; set; }

    /// <summary>Called on the disposing thread when abandoning a mailbox must wait for a sender that took its park mark (the argument is the mailbox).</summary>
    internal static Action<object>? AbandonWaitsForWake { get; set; }

    /// <summary>
    /// Called by a stop right after it read the wait of the thread it stops (the argument is the thread), on the
    /// stopping thread or on the thread's worker after a park. Meanwhile the thread may wake, run, park elsewhere or end.
    /// </summary>
    internal static Action<object>? AfterStopReadWait { get; set; }

    /// <summary>
    /// Called by a stop that took a mailbox receiver's park mark, before it decides whose it was (the argument is the
    /// mailbox). Meanwhile senders find no mark, and wake nobody.
    /// </summary>
    internal static Action<object>? AfterStopTookMark { get; set; }

    /// <summary>
    /// Called by <c>AsChannelReader</c> after its first look at the receiver, before it puts its reader in the
    /// mailbox's <c>_chooser</c> (the argument is the mailbox). A green thread that binds now does not see the reader.
    /// </summary>
    internal static Action<object>? BeforeReaderSwap { get; set; }

    /// <summary>
    /// Called by <c>AsChannelReader</c> once its reader is in the mailbox's <c>_chooser</c>, before it looks at the
    /// receiver again and attaches (the argument is the mailbox). Meanwhile the reader is there but not attached.
    /// </summary>
    internal static Action<object>? AfterReaderSwap { get; set; }

    /// <summary>
    /// Called by a receiver's worker in a receive with a timeout, after it published the wait and its deadline, before
    /// its park exchange (the argument is the mailbox). A fire of the deadline now finds no park mark to take.
    /// </summary>
    internal static Action<object>? BeforeTimedPark { get; set; }

    /// <summary>
    /// Called by the firing thread of a receive's timeout once it marked the wait expired, before it takes the park
    /// mark (the argument is the mailbox). Meanwhile a sender may wake the receiver, which may park in a later wait.
    /// </summary>
    internal static Action<object>? AfterTimeoutExpired { get; set; }
}
