using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// The waiting sends into a full bounded mailbox, for OS threads and asynchronous code: each joins the mailbox's
/// queue of waiting senders, looks for room once more, and waits until a receiver releases it (see
/// <see cref="WaiterQueue"/>). Green threads wait on a <see cref="PutEvent{T}"/> instead.
/// </summary>
/// <remarks>
/// <para>
/// The wait for room, for a <see cref="Mailbox{T}"/> or <see cref="SharedMailbox{T}"/> with a capacity: the same
/// steps for <c>SendBlocking</c>, <c>SendWhenRoomAsync</c> and a green thread's
/// <see cref="PutEvent{T}"/>. A sender:
/// </para>
/// <list type="number">
/// <item>Appends if there is room (<c>TryAdd</c>, which wakes a parked receiver). A mailbox that finds no room reads a
/// tail that moved on, or grows a full segment below its last size (the header of <c>Mailbox.HeadSegments.cs</c>);
/// otherwise the target is full, or completed: the sender asks, and a completed target refuses it instead of letting
/// it wait.</item>
/// <item>Joins the room queue (<see cref="WaiterQueue.Add(Waiter)"/>: under its lock, a new ticket in the waiter's
/// state, then a full fence).</item>
/// <item>Looks for room once more without reserving it (<c>HasRoom</c>). There is room: it withdraws (a
/// compare-and-swap on the waiter's state, expecting this wait's ticket) and goes back to step 1. If the withdrawal
/// loses, a release has already woken it: it goes on as if waiting.</item>
/// <item>Waits: a green thread parks on its put event, an OS thread blocks on its signal, an async send awaits its
/// task.</item>
/// <item>Woken: back to step 1. A sender that did not wait may have taken the room; then it waits again. No sender's
/// messages are reordered, because each waits before its next message. In a rendezvous mailbox the wait may instead
/// have ended as taken (<see cref="Waiter.Taken"/>): the receiver took the message the sender offered in the queue,
/// and the send is done. A cancellation that loses to that take is no cancellation: the message was delivered.</item>
/// </list>
/// <para>The receiver, after every take (<c>Mailbox.TryTake</c> and <c>ReleaseRoom</c>, <c>SharedMailbox.TryTake</c>):</para>
/// <list type="number">
/// <item>Passes a full fence, then reads the room queue's count: a bounded target only, so unbounded mailboxes pay
/// nothing.</item>
/// <item>If senders wait, and a quarter of the capacity is free (<see cref="WaiterQueue.ReleaseAt"/>, at least 1) or
/// the mailbox is empty, wakes as many of them as there are free slots, oldest first, under the queue's lock
/// (<see cref="WaiterQueue.Release"/>; a green thread is made ready alongside the receiver, which goes on running).
/// Waking at a quarter rather than at every free slot lets a producer that outruns its consumer park once per
/// quarter of the capacity instead of once per message.</item>
/// <item>A <see cref="Mailbox{T}"/>'s receiver that parks on the empty mailbox wakes every waiting sender, after its
/// park's swap.</item>
/// </list>
/// <para>
/// No wake-up is lost: the sender passes a full fence between joining the queue and looking for room, and the receiver
/// one between freeing the slot and reading the count, so either the receiver sees the waiter or the waiter sees the
/// freed slot. The ticket matters for green threads: one woken by a release can run on another worker and wait again
/// before the worker that queued it has finished withdrawing; the new ticket makes that late withdrawal fail instead of
/// cancelling the new wait, which would leave the thread parked with nobody to wake it. A sender that gives up after a
/// release woke it (its wait cancelled, or its scheduler disposed) passes the wake-up on to the next waiting sender
/// (<c>PassOnIfWoken</c>), so the room it was woken for is not left unused while others wait.
/// </para>
/// <para>
/// A send that finds no room asks the target whether it was completed (<see cref="IBoundedTarget{T}.IsCompleted"/>)
/// before it waits, and again after each wake-up: a completed target refuses it with the target's
/// <see cref="IBoundedTarget{T}.Refusal"/>. Completion releases every waiting sender, and a sender that queues after
/// it finds "room" in the completed target, so none waits for good.
/// </para>
/// <para>
/// Misuse is refused always, not only when the target happens to be full: <c>Send</c> into a bounded target from a
/// worker (it would block the worker), or from a <c>finally</c> block a disposal runs; <c>SendAsync</c> from either,
/// whose task a green thread cannot await; <c>Put</c> outside a green thread. A put yielded a second time faults its
/// thread rather than send its message twice, and one parked when its scheduler is disposed withdraws, its message
/// not sent. A put that finds room allocates nothing (<see cref="SentEvent"/>); one that finds the target full
/// allocates its event and, when it first waits, its waiter: about once per quarter of the capacity for a producer
/// that outruns its consumer.
/// </para>
/// <para>
/// Any OS thread that is not a worker of a scheduler (a green thread is refused with a clear exception); stateless.
/// </para>
/// </remarks>
internal static class BoundedSends
{
    /// <summary>The shared body of <c>SendAsync</c>: at once when there is room, without allocating; otherwise waits.</summary>
    internal static ValueTask SendAsync<T>(IBoundedTarget<T> target, T message, CancellationToken cancellationToken)
    {
        if (target.Room is not null && OsThreadContext.Current is { } context && (context.Worker is not null || context.Stopping is not null))
        {
            var caller = context.Worker?.RunningDescription ?? context.Stopping!.ToString();
            // A green thread cannot await the task, and blocking on it would stall the worker; and a later TrySend of
            // the same thread could overtake a send left pending. Refused always, not only when the mailbox is full.
            throw new InvalidOperationException(
                $"{caller} called SendAsync on bounded {target}; a green thread yields Put(message) instead, or calls TrySend.");
        }

        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled(cancellationToken);
        }

        if (target.TrySend(message))
        {
            return default;
        }

        return target.IsCompleted
            ? ValueTask.FromException(target.Refusal())
            : new ValueTask(SendWhenRoomAsync(target, message, cancellationToken));
    }

    /// <summary>The shared body of <c>Put</c>: the shared completed event when there is room, else a <see cref="PutEvent{T}"/> that waits.</summary>
    internal static Event Put<T>(IBoundedTarget<T> target, T message)
    {
        if (OsThreadContext.Current.Worker is null)
        {
            throw new InvalidOperationException(
                $"Put() into {target} was called outside a green thread, which cannot yield the event it returns; call Send or SendAsync instead.");
        }

        if (target.TrySend(message))
        {
            return SentEvent.Instance;
        }

        if (target.IsCompleted)
        {
            throw target.Refusal();
        }

        // Its message goes only when it is yielded: marked until then, so a put dropped unyielded faults its thread
        // (GreenThread.Stopping.cs) instead of losing the message without a word.
        var put = new PutEvent<T>(target, message, fromPut: true);
        GreenThread.Current?.MarkUnyielded(put, "its message was never sent. Yield each Put(message) right away: `yield return mailbox.Put(message);`.");
        return put;
    }

    /// <summary>Sends from an OS thread, blocking while the mailbox is full; refuses a green thread, whose worker it would stall.</summary>
    internal static void SendBlocking<T>(IBoundedTarget<T> target, T message, CancellationToken cancellationToken)
    {
        var context = OsThreadContext.Current;
        if (context.Worker is { } worker)
        {
            throw new InvalidOperationException(
                $"{worker.RunningDescription} called Send on bounded {target}, which blocks while the mailbox is full and would stall its worker; yield return Put(message) instead, or call TrySend.");
        }

        if (context.Stopping is { } stopping)
        {
            // A finally block that a scheduler's disposal runs, on the disposing thread: blocking there would hang the
            // disposal (the receiver that would make room may be stopped next, or already be), so it is refused as on
            // a worker, whether or not the mailbox is full.
            throw new InvalidOperationException(
                $"{stopping} called Send on bounded {target} from a finally block that its scheduler's disposal runs, where blocking while the mailbox is full would hang the disposal; call TrySend there instead.");
        }

        Waiter? waiter = null;
        try
        {
            while (!target.TryAdd(message))
            {
                if (target.IsCompleted)
                {
                    throw target.Refusal();
                }

                waiter ??= Waiter.ForOsThread(OfferOf(target, message));
                waiter.Signal!.Reset();
                var ticket = WaitingRoom(target).Add(waiter);
                if (target.HasRoom() && waiter.TryWithdraw(ticket))
                {
                    continue;
                }

                try
                {
                    waiter.Signal.Wait(cancellationToken);
                }
                catch (OperationCanceledException)
                {
                    if (PassOnIfWoken(target, waiter))
                    {
                        return;
                    }

                    throw;
                }

                if (waiter.WasTaken)
                {
                    return;
                }
            }
        }
        finally
        {
            if (waiter is not null)
            {
                waiter.TryWithdraw();
                waiter.Signal!.Dispose();
            }
        }
    }

    /// <summary>The rest of an asynchronous send once the mailbox was found full.</summary>
    internal static async Task SendWhenRoomAsync<T>(IBoundedTarget<T> target, T message, CancellationToken cancellationToken)
    {
        do
        {
            if (target.IsCompleted)
            {
                throw target.Refusal();
            }

            var waiter = Waiter.ForTask(OfferOf(target, message));
            var ticket = WaitingRoom(target).Add(waiter);
            if (target.HasRoom() && waiter.TryWithdraw(ticket))
            {
                continue;
            }

            using (cancellationToken.UnsafeRegister(static state => WithdrawCancelled((Waiter)state!), waiter))
            {
                await waiter.Completion!.Task.ConfigureAwait(false);
            }

            if (waiter.WasTaken || (cancellationToken.IsCancellationRequested && PassOnIfWoken(target, waiter)))
            {
                return;
            }

            cancellationToken.ThrowIfCancellationRequested();
        }
        while (!target.TryAdd(message));
    }

    /// <summary>
    /// A sender that gives up after a release woke it would use up that release, and the room it was woken for could
    /// sit unused while other senders wait; it passes the wake-up on to the next waiter instead. True if the wait had
    /// ended as taken instead (a rendezvous mailbox's receiver took the offered message): the send is done, and
    /// giving up is too late.
    /// </summary>
    internal static bool PassOnIfWoken<T>(IBoundedTarget<T> target, Waiter waiter)
    {
        if (waiter.TryWithdraw())
        {
            return false;
        }

        var state = Volatile.Read(ref waiter.State) & Waiter.StateMask;
        if (state == Waiter.Woken)
        {
            WaitingRoom(target).Release(1);
        }

        return state == Waiter.Taken;
    }

    /// <summary>What a sender that waits offers a rendezvous mailbox's receiver, which may take it from the queue; null for any other target.</summary>
    private static StrongBox<T>? OfferOf<T>(IBoundedTarget<T> target, T message) => target.IsRendezvous ? new StrongBox<T>(message) : null;

    /// <summary>The shared body of <c>CreatePutEvent</c>: an unarmed put event for a green thread.</summary>
    internal static PutEvent<T> CreatePutEvent<T>(IBoundedTarget<T> target) => new(target, default!, fromPut: false);

    /// <summary>Gets the queue of senders waiting for room in a target a send found full, so bounded.</summary>
    internal static WaiterQueue WaitingRoom<T>(IBoundedTarget<T> target) =>
        target.Room ?? throw new InvalidOperationException($"A sender waited for room in {target}, which is unbounded and never full.");

    private static void WithdrawCancelled(Waiter waiter)
    {
        // If a release woke the waiter first, the send goes on and sees the cancellation itself.
        if (waiter.TryWithdraw())
        {
            waiter.Completion!.TrySetResult();
        }
    }
}
