using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

// The receiver side of a mailbox: taking, parking, shrinking, and abandoning a receiver whose scheduler was disposed.
// The receiving green thread only, on whichever worker runs it (Abandon: the disposing thread, once the
// workers have stopped).
public sealed partial class Mailbox<T>
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

        return EventOutcome.Parked;
    }

    /// <summary>
    /// Parks the receiver for a choice's <paramref name="branch"/>: the sender (or completion) that takes the mark
    /// fires the branch instead of waking the thread. False, with nothing registered, if the mailbox changed since the
    /// choice looked (a message may be there, or the end). The receiving thread.
    /// </summary>
    internal bool EnlistReceive(GreenThread thread, ChoiceBranch branch)
    {
        if (Receiver != thread)
        {
            Bind(thread);
        }

        // Before the mark: the sender that takes it reads this.
        _chooser = branch;
        if (TryPark())
        {
            OsThreadContext.Current.CountMailboxWait();
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
            return TryTake(out message);
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

        return TryTake(out message);
    }

    /// <summary>Makes <paramref name="thread"/> the receiver, or throws if another live thread is.</summary>
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
                    // thread was preempted in between.
                    segment.WaitForMessage(position);
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
            waiting.Release(int.MaxValue);
        }

        return true;
    }

    /// <summary>
    /// Clears the parked mark of a receiver that will never run again (its scheduler was disposed), so that another
    /// green thread can take the mailbox over; or of a receiver whose choice withdraws this branch. If a sender took
    /// the mark first, its wake-up of the ended thread is ignored. The receiver's side: the parked receiver's
    /// disposing thread, or its own worker.
    /// </summary>
    internal void Abandon()
    {
        _ = TakeParkMark();

        // A sender that took the mark may not have read _receiver yet. Once a thread of another scheduler takes the
        // mailbox over, that sender would wake the newcomer instead of the ended thread, so wait for it here: it is a
        // few instructions from that read unless its OS thread was preempted.
        if (Volatile.Read(ref _wakes) != _parks)
        {
            if (TestHooks.Enabled)
            {
                TestHooks.AbandonWaitsForWake?.Invoke(this);
            }

            var spinner = default(SpinWait);
            while (Volatile.Read(ref _wakes) != _parks)
            {
                spinner.SpinOnce();

                // A stop may have held the mark and put it back (TryInterruptReceive): then it is this call's to take.
                _ = TakeParkMark();
            }
        }
    }

    /// <summary>
    /// For a stop: takes the receiver's park mark as a sender would, without a message. True if
    /// <paramref name="thread"/> was parked here in a plain receive: its one wake-up is then the caller's, and the
    /// message it waited for, whenever it comes, stays for the next receive. Any thread, while the receiver may be
    /// running, parked, or ended and replaced.
    /// </summary>
    /// <param name="thread">The thread whose wait is taken back.</param>
    /// <param name="timed">For a timeout: the timed receive whose wait <paramref name="expired"/> must still be on
    /// once the mark is taken, or the mark was a later wait's and goes back; null for a stop, which takes any wait.</param>
    /// <param name="expired">The expired state of the wait <paramref name="timed"/> times out.</param>
    internal bool TryInterruptReceive(GreenThread thread, TimedReceive<T>? timed = null, long expired = 0)
    {
        var segment = Volatile.Read(ref _head);
        var word = 0L;
        if (segment is null)
        {
            // Parked before the first message: only the receiver swaps the sentinel in.
            if (Interlocked.CompareExchange(ref _tail, null, s_parkedEmpty) != s_parkedEmpty)
            {
                return false;
            }
        }
        else
        {
            // A running receiver moves its head: a segment that was read as the head after its word was read is the
            // head the word belongs to, and a segment that has since been pooled (and parked on elsewhere) has a new
            // life count in its word, which fails the swap.
            word = Volatile.Read(ref segment.TailWord);
            if ((word & MailboxSegment<T>.Parked) == 0
                || Volatile.Read(ref _head) != segment
                || Interlocked.CompareExchange(ref segment.TailWord, word & ~MailboxSegment<T>.Parked, word) != word)
            {
                return false;
            }
        }

        if (TestHooks.Enabled)
        {
            TestHooks.AfterStopTookMark?.Invoke(this);
        }

        // The mark is this call's. The receiver and its choice branch were written before the mark was set. A reader
        // in _chooser that is not attached is one whose attach this live thread makes fail: the mark is the thread's.
        var chooser = Volatile.Read(ref _chooser);
        if (Volatile.Read(ref _receiver) == thread
            && chooser is null or MailboxChannelReader<T> { IsAttached: false }
            && (timed is null || timed.IsState(expired)))
        {
            Volatile.Write(ref _wakes, _wakes + 1);
            return true;
        }

        if (chooser is MailboxChannelReader<T> { IsAttached: true })
        {
            // A late stop of a receiver that has ended, and took the mark of the async reader that followed it: putting
            // it back would race the reader's own take-backs, so wake the reader instead (an early true is allowed).
            WakeReceiver(OsThreadContext.Current);
            return false;
        }

        // Not the thread's plain receive: its choice's (which the stop takes back through the choice), a later wait
        // than the one a timeout expired, or, after the thread ended, the mark of a receiver that took the mailbox over. Put the mark back; if a message came
        // meanwhile, its sender found no mark and woke nobody, so wake the receiver as that sender would have.
        var restored = segment is null
            ? Interlocked.CompareExchange(ref _tail, s_parkedEmpty, null) is null
            : Interlocked.CompareExchange(ref segment.TailWord, word, word & ~MailboxSegment<T>.Parked) == (word & ~MailboxSegment<T>.Parked);
        if (!restored)
        {
            WakeReceiver(OsThreadContext.Current);
        }

        return false;
    }

    /// <summary>
    /// Takes the receiver's park mark if it is set, counting the wake-up it owes: true if this call took it, false if
    /// there was none (a sender took it, and wakes the receiver). The receiver's side.
    /// </summary>
    internal bool TakeParkMark()
    {
        var segment = _head;
        var took = false;
        if (segment is null)
        {
            took = Interlocked.CompareExchange(ref _tail, null, s_parkedEmpty) == s_parkedEmpty;
        }
        else
        {
            while (true)
            {
                var word = Volatile.Read(ref segment.TailWord);
                if ((word & MailboxSegment<T>.Parked) == 0)
                {
                    break;
                }

                if (Interlocked.CompareExchange(ref segment.TailWord, word & ~MailboxSegment<T>.Parked, word) == word)
                {
                    took = true;
                    break;
                }
            }
        }

        if (took)
        {
            Volatile.Write(ref _wakes, _wakes + 1);
        }

        return took;
    }

    /// <summary>
    /// Frees the slots a bounded mailbox's segment was linked without, now that the receiver has reached it, and wakes
    /// the senders that waited for them. Receiver only.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void OpenBounded(MailboxSegment<T> segment)
    {
        var opened = segment.Open();

        // Store-load fence, as after a take: a sender that found these slots closed and queued is seen here, or sees them free.
        Interlocked.MemoryBarrier();
        if (segment.Room!.Count != 0)
        {
            segment.Room.Release(opened);
        }
    }

    /// <summary>
    /// After a take from a bounded mailbox's segment that is no longer the tail (<paramref name="head"/>), opens as many
    /// of the held-back slots of the first unfrozen segment after it as the capacity now allows, and returns how many
    /// it opened (none while the growth that moved the tail on has not frozen the head yet). Receiver only.
    /// </summary>
    /// <remarks>
    /// The growth that linked a segment left closed the slots that the messages then possibly queued before it might
    /// still need (see <c>NextBoundedSegment</c>). Here the receiver knows exactly how many are queued before that
    /// segment (the frozen segments' final counts, less what it has taken), so it sets the open slots to exactly
    /// what the capacity leaves for it. Only the receiver opens slots once a segment is linked, and it computes the
    /// target afresh each time rather than counting, so a take the growth already allowed for is never given twice.
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int OpenAhead(MailboxSegment<T> head)
    {
        // The messages queued before the segment to open: the frozen segments' final counts, less the head's taken ones.
        long queuedBefore = -_headPosition;
        var segment = head;
        while (true)
        {
            var word = Volatile.Read(ref segment.TailWord);
            if ((word & MailboxSegment<T>.Frozen) == 0)
            {
                break;
            }

            // Frozen: its count is final, and its successor is linked (before the freeze), unless it is the end.
            queuedBefore += MailboxSegment<T>.PositionOf(word);
            if (Volatile.Read(ref segment.Next) is not { } next)
            {
                return 0;
            }

            segment = next;
        }

        return segment.OpenUpTo((int)Math.Min(segment.Capacity - queuedBefore, segment.Bound));
    }

    /// <summary>
    /// Wakes waiting senders once a quarter of a bounded mailbox is free, or all of it. Receiver only, right after a take
    /// that opened <paramref name="opened"/> slots in a segment ahead of it.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReleaseRoom(WaiterQueue room, MailboxSegment<T> segment, int opened)
    {
        if (Volatile.Read(ref _tail) != segment)
        {
            // Still draining segments a growth left behind: what this take freed is what it opened ahead.
            if (opened > 0)
            {
                room.Release(opened);
            }

            return;
        }

        var depth = MailboxSegment<T>.PositionOf(Volatile.Read(ref segment.TailWord)) - _headPosition;
        var free = segment.Bound - depth;
        if (free >= room.ReleaseAt || depth <= 0)
        {
            room.Release((int)free);
        }
    }

    /// <summary>
    /// If the receiver's large tail segment is empty, links a first-size segment behind it and freezes it; once no
    /// late message is left in it, the large segment goes back to the pool. Receiver only.
    /// </summary>
    private void ShrinkIfEmpty(MailboxSegment<T> large)
    {
        var word = Volatile.Read(ref large.TailWord);
        if (MailboxSegment<T>.PositionOf(word) != _headPosition || (word & MailboxSegment<T>.Frozen) != 0)
        {
            return;
        }

        var small = SegmentPool<T>.Rent(FirstSegmentSlots);
        lock (large)
        {
            if (Volatile.Read(ref _tail) != large)
            {
                SegmentPool<T>.Return(small);
                return;
            }

            Volatile.Write(ref large.Next, small);

            // The receiver is running, so it is not parked on the segment, and no wake-up is owed.
            large.Freeze(out var appended);
            small.Base = large.Base + appended;
            Volatile.Write(ref _tail, small);
        }

        if (MailboxSegment<T>.PositionOf(Volatile.Read(ref large.TailWord)) == _headPosition)
        {
            // No sender got in before the freeze: nothing is left to take from the large segment.
            _head = large.Next;
            _headPosition = 0;
            AssertNotTail(large);
            SegmentPool<T>.Return(large);
        }
    }

    /// <summary>Gets the first segment for a receiver that has none yet, or null if no message was ever sent.</summary>
    private MailboxSegment<T>? FirstSegment()
    {
        var tail = Volatile.Read(ref _tail);
        if (tail is null || tail == s_parkedEmpty)
        {
            return null;
        }

        // The sender that created the first segment sets _head right after publishing it in _tail.
        var spinner = default(SpinWait);
        MailboxSegment<T>? head;
        while ((head = Volatile.Read(ref _head)) is null)
        {
            spinner.SpinOnce();
        }

        return head;
    }
}
