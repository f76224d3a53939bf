using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

// The receiver side of a mailbox: binding, taking and parking. What a take does beyond its slot (the first segment,
// room for a bounded mailbox's senders, shrinking) is in Mailbox.HeadSegments.cs, and taking a park back (a stop, a
// timeout, a disposal) in Mailbox.TakingBack.cs. The receiving green thread only, on whichever worker runs it; or, once
// async code receives, whoever holds the MailboxChannelReader's lock.
//
// Receiver park and sender wake. The receiver:
//   1. Bind (Bind): the first green thread to receive becomes the receiver, with a compare-and-swap. Another thread
//      that receives while the receiver is alive is faulted with an InvalidOperationException naming both threads and
//      the mailbox. Once the receiver has ended, another thread may take its place only in a mailbox that
//      OutlivesReceiver; in any other the bind, and AsChannelReader, are refused, naming both threads. Unless the
//      mailbox outlives its receiver, the bind also tells the thread of the mailbox (GreenThread.AddReceived), so that
//      its end hands the messages to the dead letters (Mailbox.ReceiverEnding.cs). TryRecv is steps 1 and 2 alone
//      (TryTakeAsReceiver): its caller is running, so not parked, and it knows the receiver by its worker's running id,
//      so that only a call that binds, or fails, pays GreenThread.Current's search.
//   2. Take (TryTake). A message is there: go on without parking. The head slot is reserved but not yet written (the
//      tail position is past it): wait the few instructions until its sender publishes it (WaitForMessage). The head
//      segment is frozen and drained: move to its Next, set that segment's Base (for Count), give the drained segment
//      to the pool (a bounded mailbox keeps its segments, and opens the next one's held-back slots), and take again. A
//      frozen segment without a Next is a completed mailbox's end segment: nothing is taken, and the receive reports
//      the end (Mailbox.Completing.cs).
//   3. Worker.RunTurn has already set WaitingOn to the event when it calls Park: once the thread is parked, another
//      worker may resume it at once, and reads it.
//   4. Park (TryPark): read the head segment's tail word. If its position is still the head position and it is neither
//      frozen nor parked, swap the parked bit in (a large unbounded segment is shrunk instead, and the receive takes
//      again). Decide from that swap's result alone: the moment it succeeds, a sender may wake the thread and another
//      worker run it, moving the head. It succeeded: the thread is parked (a bounded mailbox then releases every
//      waiting sender, BoundedSends.cs). It failed, or the word had moved: a message was reserved, the segment frozen,
//      or the first segment made since step 2; take again.
// The senders (Mailbox.Sending.cs):
//   5. Every append's compare-and-swap clears the parked bit as it reserves a slot (MailboxSegment.TryAppend), so
//      exactly one sender sees the bit, and that sender makes the thread ready (WakeReceiver). A growth's freeze swaps
//      the bit out too; the growing sender then owes the wake-up.
// A mailbox with no segment yet parks by swapping the frozen sentinel s_parkedEmpty into the null tail. A send's fast
// path turns away from the frozen sentinel; SendSlow swaps a real segment in and, having replaced the sentinel, wakes
// the receiver.
// No wake-up is lost: the receiver parks only on an empty segment, both sides swap the same word, and each swap is a
// full fence, so either the sender's swap takes the parked bit or the receiver's swap fails because the position moved.
// The receiver counts its parks (_parks); whoever takes a park's mark (a sender, or a take-back) counts a wake
// (_wakes), so that Abandon can wait for a sender still on its way to wake. ParkRaceTests holds the parking worker
// right after a successful swap (TestHooks.AfterParkExchange) until the thread has been woken and run elsewhere, and
// checks that it ran once and received every message. (A park that read its state again after its swap once ran a
// thread on two workers: docs/history.md, "A receiver run on two workers".)
// A spawn may bind the thread it spawns before its body runs (Scheduler.SpawnReceiver, BindAtSpawn): step 1
// alone, on the spawning thread, so the mailbox has its receiver, and its end, from the start.
public sealed partial class Mailbox<T> : ISpawnBinding
{
    /// <summary>
    /// A receive: takes the next message into <paramref name="receive"/> if there is one, else parks the receiver;
    /// or, past the last message of a completed mailbox, gives it the end. The receiving thread, when it yields
    /// <see cref="Recv"/>.
    /// </summary>
    internal EventOutcome TakeOrPark(GreenThread thread, ReceiveEvent<T> receive, Worker worker)
    {
        if (Receiver != thread)
        {
            Bind(thread);
        }

        while (true)
        {
            if (TryTake(out var message))
            {
                receive.Deliver(message);
                return EventOutcome.Continue;
            }

            // A failed park means the mailbox changed since the take looked: a message arrived, or the segment
            // the receiver would park on was created or frozen. Look again, unless the take has reached the end,
            // which never changes: the end segment is frozen, so no park on it succeeds.
            if (TryPark())
            {
                // The worker is this OS thread's, whether or not the receiver already runs elsewhere.
                worker.Counters.MailboxWaits++;
                return EventOutcome.Parked;
            }

            if (AtEnd)
            {
                receive.DeliverEnd();
                return EventOutcome.Continue;
            }
        }
    }

    /// <summary>A receive that never parks, for a choice looking at its branches: Parked if the mailbox is empty. The receiving thread.</summary>
    internal EventOutcome TryReceive(GreenThread thread, ReceiveEvent<T> receive)
    {
        if (Receiver != thread)
        {
            Bind(thread);
        }

        if (TryTake(out var message))
        {
            receive.Deliver(message);
            return EventOutcome.Continue;
        }

        if (AtEnd)
        {
            // The end completes the branch as a message would: the choice chooses it, and it reports the end.
            receive.DeliverEnd();
            return EventOutcome.Continue;
        }

        if (TryTakeOffered(out message))
        {
            receive.Deliver(message);
            return EventOutcome.Continue;
        }

        return EventOutcome.Parked;
    }

    /// <summary>
    /// Parks the receiver for a choice's <paramref name="branch"/>: the sender (or completion) that takes the mark
    /// fires the branch instead of waking the thread. False, with nothing registered, if the mailbox changed since the
    /// choice looked (a message may be there, or the end). The receiving thread.
    /// </summary>
    internal bool EnlistReceive(GreenThread thread, ChoiceBranch branch, Worker worker)
    {
        if (Receiver != thread)
        {
            Bind(thread);
        }

        // Before the mark: the sender that takes it reads this.
        _chooser = branch;
        if (TryPark())
        {
            worker.Counters.MailboxWaits++;
            return true;
        }

        _chooser = null;
        return false;
    }

    /// <summary>
    /// Ends a choice's park: clears the mark, or, if a sender took it, waits until that sender has fired the branch
    /// (absorbed by the choice unless the branch is chosen). The message stays for the next receive. The receiving
    /// thread, or the disposing thread.
    /// </summary>
    internal void WithdrawReceive()
    {
        Abandon();
        _chooser = null;
    }

    /// <summary>
    /// The end of a receive that parked: the send that woke the receiver linked a message, so it is there; or the
    /// completion woke it, and the end is there.
    /// </summary>
    internal EventOutcome TakeOnResume(GreenThread thread, ReceiveEvent<T> receive)
    {
        if (!TryTake(out var message))
        {
            if (AtEnd)
            {
                receive.DeliverEnd();
                return EventOutcome.Continue;
            }

            // A receiver is woken only by the send that linked a message, or by the completion; anything else is a
            // runtime bug, and continuing would hand the body a message nobody sent.
            throw new InvalidOperationException($"{thread} was resumed from {receive} with no message in the mailbox.");
        }

        receive.Deliver(message);
        return EventOutcome.Continue;
    }

    /// <summary>
    /// <see cref="TryRecv"/>: a take without the park. The calling green thread, which becomes the receiver if the
    /// mailbox has none alive; it is running, so it is not parked on this mailbox, and the receiver side is its own.
    /// </summary>
    private bool TryTakeAsReceiver([MaybeNullWhen(false)] out T message)
    {
        // The receiver calling again, told by its worker's running id: ids are unique within a scheduler, and this
        // spares every call GreenThread.Current's search of the live threads for the caller.
        if (OsThreadContext.Existing is { Stopping: null, Worker: { } worker }
            && worker.RunningId != 0
            && Receiver is { } receiver
            && receiver.Id == worker.RunningId
            && receiver.Scheduler == worker.Scheduler)
        {
            return TryTake(out message) || TryTakeOffered(out message);
        }

        var thread = GreenThread.Current;
        if (thread is null)
        {
            var caller = Thread.CurrentThread;
            throw new InvalidOperationException(
                $"OS thread {(caller.Name is { } name ? $"'{name}'" : $"#{caller.ManagedThreadId}")} called TryRecv() on {this} outside any green thread; only the mailbox's receiving green thread receives from it.");
        }

        if (Receiver != thread)
        {
            Bind(thread);
        }

        return TryTake(out message) || TryTakeOffered(out message);
    }

    /// <inheritdoc/>
    void ISpawnBinding.BindAtSpawn(GreenThread thread) => Bind(thread);

    /// <summary>
    /// Makes <paramref name="thread"/> the receiver, or throws if another live thread is. The thread itself, at its
    /// first receive; or its spawner, before it is placed (<see cref="ISpawnBinding"/>).
    /// </summary>
    internal void Bind(GreenThread thread)
    {
        var current = Volatile.Read(ref _receiver);
        if (current is not null && !OutlivesReceiver && current.IsCompleted)
        {
            throw ReceiverEndedForGood(thread.ToString(), current);
        }

        if ((current is not null && !current.IsCompleted)
            || Interlocked.CompareExchange(ref _receiver, thread, current) != current)
        {
            throw new InvalidOperationException(
                $"{thread} cannot receive from {this}: {Volatile.Read(ref _receiver)} is its receiver, and a mailbox has one receiving green thread at a time.");
        }

        // After the swap's full fence, as AsChannelReader looks at _receiver after its own: one of the two sees the
        // other. A reader not attached yet may still be refused because of this very bind: wait for the attach's
        // decision (it holds the lock while it decides), so that the two are never both refused.
        if (Volatile.Read(ref _chooser) is MailboxChannelReader<T> reader)
        {
            if (!reader.IsAttached)
            {
                lock (_receive)
                {
                }
            }

            if (Volatile.Read(ref _chooser) is MailboxChannelReader<T> { IsAttached: true })
            {
                Interlocked.CompareExchange(ref _receiver, current, thread);
                throw new InvalidOperationException(
                    $"{thread} cannot receive from {this}: async code receives from it through AsChannelReader(), which owns its receive for good.");
            }
        }

        if (!OutlivesReceiver)
        {
            // Its end sends this mailbox's messages to the dead letters.
            thread.AddReceived(this);
        }

        // The swap above was the full fence of the handshake with a waiter that found no receiver: step 2 of
        // ReceiverBinds, one volatile read while nothing waits.
        if (ReceiverBinds.Listener is { } listener)
        {
            listener.ReceiverBound(this, thread);
        }
    }

    /// <summary>
    /// Gets a value indicating whether async code receives from this mailbox through <see cref="AsChannelReader"/>
    /// (attached, or attaching): then no green thread receives from it again. Any thread.
    /// </summary>
    internal bool HasChannelReader => Volatile.Read(ref _chooser) is MailboxChannelReader<T>;

    /// <summary>
    /// Takes the oldest message if there is one. Receiver only. Past the last message of a completed mailbox it moves
    /// onto the end segment and finds nothing; the caller tells that from an empty mailbox by <see cref="AtEnd"/>.
    /// </summary>
    internal bool TryTake(out T message)
    {
        var segment = _head ?? FirstSegment();
        if (segment is not null)
        {
            while (true)
            {
                var position = _headPosition;
                if (segment.TryTake(position, out message))
                {
                    _headPosition = position + 1;
                    AssertHeadBehindTail(segment);
                    if (segment.Room is { } room)
                    {
                        // A take from a segment a growth left behind (no longer the tail) frees no slot of its own:
                        // the room goes to the segment linked after it, whose slots were held back for the messages
                        // still queued here. (Asked of the tail, which the receiver's line holds, rather than of the
                        // segment's word, which every send swaps.)
                        var opened = Volatile.Read(ref _tail) != segment ? OpenAhead(segment) : 0;

                        // Store-load fence, bounded mailboxes only: the freed slot must be visible before the count
                        // of waiting senders is read, or a sender that queued just then and saw the slot still full
                        // would wait until this receiver's next take or park, which may never come.
                        Interlocked.MemoryBarrier();
                        if (room.Count != 0)
                        {
                            ReleaseRoom(room, segment, opened);
                        }
                    }
                    else if (segment.SlotCount >= ShrinkFrom && !segment.HoldsMessageAt(position + 1))
                    {
                        // Perhaps the last message of a burst: give the large segment back at once, rather than
                        // when the receiver next parks, which it may never do.
                        ShrinkIfEmpty(segment);
                    }

                    return true;
                }

                var word = Volatile.Read(ref segment.TailWord);
                if (MailboxSegment<T>.PositionOf(word) != position)
                {
                    // A sender reserved the slot and is writing it; that takes a few instructions unless its OS
                    // thread was preempted in between. Or it wrote it with its trace: the take goes on plain.
                    WaitForMessage(segment, position);
                    continue;
                }

                if ((word & MailboxSegment<T>.Frozen) == 0)
                {
                    break;
                }

                // Drained a frozen segment: the rest of the messages are in the next one. It is no longer the tail
                // (a growth or completion moves the tail on before it freezes, and a shrink is this receiver's own),
                // so no sender can reserve a slot of it any more, and another mailbox may have it.
                var drained = segment;
                var next = segment.Next;
                if (next is null)
                {
                    // The end segment of a completed mailbox, frozen from the start: nothing follows it.
                    Debug.Assert(segment is EndSegment<T>, $"A frozen segment of {this} has no successor: a freeze must link the next segment first.");
                    break;
                }

                AssertNotTail(drained);

                // The growth that linked the next segment sets the same count after its freeze; whichever comes
                // first, the receiver's side of Count needs it now.
                Volatile.Write(ref next.Base, drained.Base + position);
                // The position first: a sender that reads the head and then the position (a bounded mailbox's growth,
                // see NextBoundedSegment; Count) then never pairs this head with the last one's position, which would
                // count more taken than there are.
                _headPosition = 0;
                Volatile.Write(ref _head, next);
                segment = next;
                if (drained.Room is null)
                {
                    SegmentPool<T>.Return(drained);
                }
                else if (next.Unopened != next.Bound)
                {
                    // A bounded mailbox's segment carries its capacity and room, so it is not the pool's. The next one
                    // was linked with only some slots free, so that the messages queued before it would not push the
                    // mailbox past its capacity; every one of them is taken now.
                    OpenBounded(next);
                }
            }
        }

        message = default!;
        return false;
    }

    /// <summary>
    /// Waits until the message at <paramref name="position"/>, reserved by a sender, is written; or takes the trace
    /// it was written with, and receives it (<see cref="Received"/>), the take itself going on as any other. Off the
    /// hop's path: a message with a trace is found here, by its slot's sequence. Receiver only.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WaitForMessage(MailboxSegment<T> segment, long position)
    {
        if (segment.TakeTraceAt(position) is { } sent)
        {
            Received(sent);
            return;
        }

        segment.WaitForMessage(position);
    }

    /// <summary>
    /// The receive of a message that carries its sender's trace: its span, open as the receiving green thread's
    /// current activity when taken in that thread's turn (Tracing.cs); none for a message an ended receiver's mailbox
    /// drains into the dead letters. Receiver only.
    /// </summary>
    private void Received(Activity sent)
    {
        if (Receiver is { Body: null } && !HasChannelReader)
        {
            return;
        }

        var inTurn = OsThreadContext.Existing is { Worker: { } worker }
            && worker.RunningId != 0
            && Receiver is { } receiver
            && receiver.Id == worker.RunningId
            && receiver.Scheduler == worker.Scheduler
            ? receiver
            : null;
        Tracing.Received(Name, sent, inTurn);
    }

    /// <summary>
    /// Parks the receiver if the queue is still empty: returns true if it parked, false if a message arrived first.
    /// Receiver only, right after <see cref="TryTake"/> found nothing.
    /// </summary>
    internal bool TryPark()
    {
        // Decide from the swap's own result only: the moment it succeeds, a sender may wake this thread on another
        // worker, which then takes messages and moves _head and _headPosition; reading them again here would see
        // that and "fail" a park that succeeded, running the thread on two workers at once.
        bool parked;
        var segment = _head;
        if (segment is null)
        {
            _parks++;
            parked = Interlocked.CompareExchange(ref _tail, s_parkedEmpty, null) is null;
        }
        else
        {
            var word = Volatile.Read(ref segment.TailWord);
            if (MailboxSegment<T>.PositionOf(word) != _headPosition || (word & (MailboxSegment<T>.Frozen | MailboxSegment<T>.Parked)) != 0)
            {
                return false;
            }

            if (segment.SlotCount >= ShrinkFrom && segment.Room is null)
            {
                // Empty after a burst: give the large segment back rather than keep it while parked.
                ShrinkIfEmpty(segment);
                return false;
            }

            _parks++;
            parked = Interlocked.CompareExchange(ref segment.TailWord, word | MailboxSegment<T>.Parked, word) == word;
        }

        if (!parked)
        {
            _parks--;
            return false;
        }

        if (TestHooks.Enabled)
        {
            TestHooks.AfterParkExchange?.Invoke(this);
        }

        if (segment?.Room is { } waiting && waiting.Count != 0)
        {
            // Parked on an empty mailbox, after a full fence (the swap): a sender that started waiting while a take
            // missed it is seen here at the latest. Only the queue is touched; the receiver may already run elsewhere.
            // A rendezvous mailbox's parked receiver takes one message: one sender is released to hand it over.
            waiting.Release(segment.IsRendezvous ? 1 : int.MaxValue);
        }

        return true;
    }

}
