using System;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace ThreadIterators;

// The sender side of a mailbox: appending and waking the parked receiver (step 5 of the park in
// Mailbox.Receiving.cs). A send that finds no segment, a full or frozen one, or a completed mailbox goes on in
// Mailbox.Growing.cs. Any thread, green or not, any number at once.
public sealed partial class Mailbox<T>
{
    /// <summary>
    /// Puts a message into the mailbox, waking the receiver if it is parked on <see cref="Recv"/>. An unbounded
    /// mailbox never blocks, and any thread may call this. A full bounded mailbox blocks the calling OS thread until
    /// there is room; a green thread cannot block its worker, so it yields <see cref="Put"/> instead.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <exception cref="InvalidOperationException">The mailbox is bounded and the caller is a green thread.</exception>
    /// <exception cref="ChannelClosedException">
    /// The mailbox was completed (before the send, or while it waited for room), and the message was not sent. The
    /// inner exception is the error the mailbox was completed with, if any.
    /// </exception>
    public void Send(T message)
    {
        var tail = Volatile.Read(ref _tail);
        if (tail is not null && tail.Room is not null)
        {
            BoundedSends.SendBlocking(this, message, CancellationToken.None);
            return;
        }

        if (!Append(message, tail, alongside: false))
        {
            ThrowCompleted();
        }
    }

    /// <summary>
    /// As <see cref="Send(T)"/>; a blocked OS thread stops waiting when <paramref name="cancellationToken"/> is
    /// cancelled, and the message is then not sent.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room.</param>
    /// <exception cref="OperationCanceledException">The token was cancelled before there was room.</exception>
    /// <exception cref="InvalidOperationException">The mailbox is bounded and the caller is a green thread.</exception>
    /// <exception cref="ChannelClosedException">The mailbox was completed, and the message was not sent.</exception>
    public void Send(T message, CancellationToken cancellationToken)
    {
        if (Room is null)
        {
            Send(message);
        }
        else
        {
            BoundedSends.SendBlocking(this, message, cancellationToken);
        }
    }

    /// <summary>
    /// Puts a message into the mailbox if there is room, without ever waiting: always, for an unbounded mailbox that
    /// has not been completed. Any thread.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <returns>
    /// True if the message is in; false if the bounded mailbox was full or the mailbox was completed, and the message
    /// was not sent.
    /// </returns>
    public bool TrySend(T message)
    {
        var tail = Volatile.Read(ref _tail);
        return tail is null || tail.Room is null ? Append(message, tail, alongside: false) : TryAdd(message);
    }

    /// <summary>
    /// Sends a message, waiting asynchronously while a bounded mailbox is full. Completes at once when there is room
    /// (always, for an unbounded mailbox), without allocating.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the wait for room; the message is then not sent.</param>
    /// <returns>
    /// A task that completes when the message is in; it faults with a <see cref="ChannelClosedException"/> if the
    /// mailbox is completed before the message went in.
    /// </returns>
    public ValueTask SendAsync(T message, CancellationToken cancellationToken = default) => BoundedSends.SendAsync(this, message, cancellationToken);

    /// <summary>
    /// Sends into an unbounded mailbox for a sender that goes on running: a receiver it wakes is queued where an idle
    /// worker can take it, not in this worker's run-next slot (see <see cref="Scheduler.ReadyAlongside"/>). For the
    /// pull protocol, whose both sides send and carry on.
    /// </summary>
    internal void SendAlongside(T message)
    {
        if (!Append(message, Volatile.Read(ref _tail), alongside: true))
        {
            ThrowCompleted();
        }
    }

    /// <summary>Appends to a bounded mailbox if it has room, waking the receiver if it was parked. Any thread.</summary>
    bool IBoundedTarget<T>.TryAdd(T message) => TryAdd(message);

    /// <summary>
    /// Appends to a bounded mailbox if it has room, waking the receiver if it was parked; false if it is full or
    /// completed. Any thread.
    /// </summary>
    private bool TryAdd(T message)
    {
        var context = OsThreadContext.Current;
        context.CountSend();
        var sent = Tracing.Seen ? Tracing.Sending(Name) : null;
        var tail = Volatile.Read(ref _tail)!;
        switch (tail.TryAppend(message, sent, ref _tail))
        {
            case MailboxSegment<T>.Appended:
                return true;
            case MailboxSegment<T>.AppendedToParked:
                WakeReceiver(context);
                return true;
            default:
                return TryAddSlow(message, tail, context, sent);
        }
    }

    /// <summary>
    /// A bounded send that found no room in the segment it read: grows a full segment that is not yet the last size,
    /// reads a tail that moved on, and returns false if the mailbox is full or completed (the caller tells the two
    /// apart by IsCompleted). A wake-up owed for the park mark a growth's freeze took is given either way.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryAddSlow(T message, MailboxSegment<T> tail, OsThreadContext context, Activity? sent)
    {
        if (tail.IsRendezvous)
        {
            // Never room in a rendezvous mailbox: the message goes to a receiver that waits, or not at all.
            return HandOver(message, tail, context, sent);
        }

        var wake = false;
        var added = false;
        while (true)
        {
            var word = Volatile.Read(ref tail.TailWord);
            if (Volatile.Read(ref _tail) != tail)
            {
                // Grown or completed since it was read.
                tail = Volatile.Read(ref _tail)!;
            }
            else if ((word & MailboxSegment<T>.Frozen) != 0
                || tail.SlotCount == LastBoundedSlots(tail.Capacity)
                || MailboxSegment<T>.PositionOf(word) < tail.SlotCount)
            {
                // The end segment of a completed mailbox; or the last size, holding the capacity; or a segment whose
                // slots past Unopened wait for the receiver to reach it: full for now either way.
                break;
            }
            else
            {
                // The segment holds as many messages as it has slots, fewer than the capacity: link a larger one.
                wake |= Grow(tail);
                tail = Volatile.Read(ref _tail)!;
            }

            var appended = tail.TryAppend(message, sent, ref _tail);
            if (appended is MailboxSegment<T>.Appended or MailboxSegment<T>.AppendedToParked)
            {
                wake |= appended == MailboxSegment<T>.AppendedToParked;
                added = true;
                break;
            }
        }

        if (!added)
        {
            context.UncountSend();
        }

        if (wake)
        {
            WakeReceiver(context);
        }

        return added;
    }

    /// <summary>The slots of a bounded mailbox's last segment: its capacity rounded up to a power of two, and at least two (with one, a full slot's sequence, position + 1, would read as free for the next position).</summary>
    private static int LastBoundedSlots(int capacity) => (int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(2, capacity));

    /// <summary>Gets a value indicating whether a bounded mailbox's next slot is free; a look for a waiting sender.</summary>
    /// <remarks>In a rendezvous mailbox, "room" is a receiver parked on it (or the completion).</remarks>
    bool IBoundedTarget<T>.HasRoom()
    {
        var tail = Volatile.Read(ref _tail)!;
        return tail.IsRendezvous ? (Volatile.Read(ref tail.TailWord) & (MailboxSegment<T>.Parked | MailboxSegment<T>.Frozen)) != 0 : tail.HasRoom();
    }

    /// <summary>
    /// The unbounded send: append, and wake the receiver if this append took its park mark. False if the mailbox was
    /// completed, and the message is not in.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool Append(T message, MailboxSegment<T>? tail, bool alongside) =>
        // The one read a send pays for tracing while no activity was ever current; the untraced append below is then
        // compiled with no trace to carry, as if tracing did not exist.
        Tracing.Seen ? AppendTraced(message, tail, alongside) : Append(message, tail, alongside, sent: null);

    /// <summary>An append that carries the sender's trace, if it has one (Tracing.cs).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool AppendTraced(T message, MailboxSegment<T>? tail, bool alongside) => Append(message, tail, alongside, Tracing.Sending(Name));

    /// <summary>The unbounded send, carrying <paramref name="sent"/> with the message if it is not null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool Append(T message, MailboxSegment<T>? tail, bool alongside, Activity? sent)
    {
        var context = OsThreadContext.Current;
        context.CountSend();
        if (TestHooks.Enabled)
        {
            TestHooks.AfterTailRead?.Invoke(this);
        }

        var appended = tail is null ? MailboxSegment<T>.NoRoom : tail.TryAppend(message, sent, ref _tail);
        if (appended == MailboxSegment<T>.Appended)
        {
            return true;
        }

        if (appended == MailboxSegment<T>.AppendedToParked)
        {
            WakeReceiver(context, alongside);
            return true;
        }

        // A completed mailbox is met only here, off the hop's path: its tail is the frozen end segment, so the fast
        // append above found no room. The slow path wakes the receiver itself, so that nothing it returns has to be
        // kept across the hop's wake-up above.
        return SendSlow(message, context, alongside, sent);
    }

    /// <summary>Makes the parked receiver ready; called by the one sender whose append took the park mark.</summary>
    private void WakeReceiver(OsThreadContext context, bool alongside = false)
    {
        if (TestHooks.Enabled)
        {
            TestHooks.BeforeWakeRead?.Invoke(this);
        }

        var receiver = _receiver!;
        if (_chooser is { } chooser)
        {
            if (chooser == s_receiverEnded)
            {
                // The receiver has ended: this sender takes its place and drains the mailbox into the dead letters.
                Volatile.Write(ref _wakes, _wakes + 1);
                DrainToDeadLetters(receiver, DeadLetterReason.SentAfterReceiverEnded);
                return;
            }

            if (chooser is ChoiceBranch branch)
            {
                // Parked in a choice. Its withdrawal waits for the count below, so until then the choice cannot move
                // on to another wait: the generation read before it is the one this mark was made for.
                var generation = branch.Choice.CurrentGeneration;
                Volatile.Write(ref _wakes, _wakes + 1);
                context.CountWakeUp();
                branch.Fire(generation, alongside);
                return;
            }

            var reader = Unsafe.As<MailboxChannelReader<T>>(chooser);
            if (reader.IsAttached)
            {
                // Async code receives: its wait ends on the thread pool, never on this (perhaps a worker's) thread.
                Volatile.Write(ref _wakes, _wakes + 1);
                context.CountWakeUp();
                reader.Wake();
                return;
            }

            // A reader that failed to attach, because a green thread bound meanwhile (see AsChannelReader): the mark
            // is that thread's plain receive.
        }

        Volatile.Write(ref _wakes, _wakes + 1);
        if (alongside)
        {
            receiver.Scheduler.Placement.WakeAlongside(receiver, context);
        }
        else
        {
            receiver.Scheduler.Placement.Wake(receiver, context);
        }
    }
}
