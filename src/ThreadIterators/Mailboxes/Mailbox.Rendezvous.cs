using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

// A rendezvous mailbox (capacity 0, Go's unbuffered channel): a send completes only once the receiver has committed to
// take its message. It is a bounded mailbox whose one segment has a bound of 0 (MailboxSegment.IsRendezvous), so the
// bounded send's append never finds room and goes to TryAddSlow, which hands over instead; "room" is a receiver that
// waits. The waiting senders are the bounded mailbox's (BoundedSends, PutEvent, the room queue), and each also offers
// its message (Waiter.Offer), so the receiver can take it from the queue. A message moves in one of two ways, and
// either way through the segment's slot, so the receiver's take, its end and its dead letters are a bounded mailbox's.
//
// Hand-over, by a sender (HandOver, from TryAdd: Put, a put event, Send, SendAsync, TrySend):
//   1. Swap the receiver's park mark off the segment's tail word, without reserving a slot. No mark (the receiver is
//      not waiting) or a frozen word (completed): nothing is sent, and the sender waits or is refused as a bounded
//      sender that found no room. The mark, once taken, holds the receiver: its withdrawal (a choice's, a timeout's, a
//      stop's, a disposal's) finds no mark and waits for the wake-up count (_wakes), as after any sender's take.
//   2. A receiver parked in a choice (_chooser is its branch) commits only if the branch's fire wins the choice's
//      state; a fire that loses (another branch won) sends nothing: count the wake-up and wait as if there were no
//      room. A plain or timed receive is committed by the mark alone.
//   3. Committed: append the message (TryAppendHandedOver, which only a completion's freeze can refuse; the receiver
//      then finds the end, and the sender is refused), count the wake-up, and make a plain receiver ready (a fired
//      choice is made ready by its fire). The sender's put is complete: the receiver takes the message when it runs.
// Taking an offer, by the receiver (PullOffer, from TryReceive, TryRecv and a zero-timeout receive: the waits where the
// receiver looks without parking, and is the only party that can decide its own wait):
//   4. Under the segment's lock, which a completion's freeze holds, check the segment is not frozen, then take the
//      oldest committing sender's message (WaiterQueue.TryTakeOffer: a choice's sender commits only if its branch's
//      fire wins) and append it; take it from the slot at once.
// The receiver's park (TryPark): parked, it reads the room queue's count after its swap (a full fence); senders that
// queued are released, one, to hand over (step 1). A waiting sender joins the queue, passes a full fence, then looks
// for the mark (HasRoom): either it sees the mark, or the receiver sees it queued. A plain receive does not take
// offers before it parks, so a hop costs the unbounded hop nothing; only its park's release differs. A receiver's mark
// that a stop or a timeout took and put back releases one waiting sender too, which found no mark meanwhile.
// Nothing is sent twice or lost: a message is appended only by the party that holds the receiver's commitment (the
// mark's taker with its branch's fire, or the receiver), and a waiting sender's message is taken only by the swap of
// its state to Taken, which excludes its release, withdrawal and stop. A sender whose choice lost, whose wait a stop,
// timeout, cancellation or disposal ended, or whose release it did not use (PassOnIfWoken) has sent nothing.
public sealed partial class Mailbox<T>
{
    /// <summary>Gets a value indicating whether this is a rendezvous mailbox (made with capacity 0). Any thread.</summary>
    internal bool IsRendezvous => Volatile.Read(ref _tail) is { IsRendezvous: true };

    /// <inheritdoc/>
    bool IBoundedTarget<T>.IsRendezvous => IsRendezvous;

    /// <summary>
    /// Steps 1 to 3: hands <paramref name="message"/> to the receiver if it waits and commits; false if it does not
    /// (the sender waits), or if the mailbox was completed. The send was counted; a refused one is taken back. Any thread.
    /// </summary>
    private bool HandOver(T message, MailboxSegment<T> segment, OsThreadContext context, Activity? sent)
    {
        while (true)
        {
            var word = Volatile.Read(ref segment.TailWord);
            if ((word & (MailboxSegment<T>.Parked | MailboxSegment<T>.Frozen)) != MailboxSegment<T>.Parked)
            {
                context.UncountSend();
                return false;
            }

            if (Interlocked.CompareExchange(ref segment.TailWord, word & ~MailboxSegment<T>.Parked, word) == word)
            {
                break;
            }
        }

        // The mark is this sender's: the receiver wrote its branch (or none) before setting it, and cannot withdraw
        // until the wake-up below is counted.
        var receiver = _receiver!;
        bool appended;
        if (_chooser is ChoiceBranch branch)
        {
            appended = branch.Fire(branch.Choice.CurrentGeneration) && segment.TryAppendHandedOver(message, sent);
            Volatile.Write(ref _wakes, _wakes + 1);
            context.CountWakeUp();
        }
        else
        {
            appended = segment.TryAppendHandedOver(message, sent);
            Volatile.Write(ref _wakes, _wakes + 1);
            receiver.Scheduler.Placement.Wake(receiver, context);
        }

        if (!appended)
        {
            context.UncountSend();
        }

        return appended;
    }

    /// <summary>
    /// Step 4: moves the oldest committing waiting sender's message into the slot; false if none commits, or the
    /// mailbox was completed. The receiver, running, while the slot is empty.
    /// </summary>
    private static bool PullOffer(MailboxSegment<T> segment)
    {
        lock (segment)
        {
            if ((Volatile.Read(ref segment.TailWord) & MailboxSegment<T>.Frozen) != 0
                || segment.Room!.Count == 0
                || !segment.Room.TryTakeOffer<T>(out var message))
            {
                return false;
            }

            // The waiting sender's trace is not kept with its offer: this message carries none.
            var appended = segment.TryAppendHandedOver(message, sent: null);
            Debug.Assert(appended, "A rendezvous segment was frozen under the lock its freeze takes.");
            return true;
        }
    }

    /// <summary>
    /// For a receive that looks without parking, after its take found nothing: in a rendezvous mailbox, takes a waiting
    /// sender's message (step 4). False for any other mailbox. The receiver.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryTakeOffered(out T message)
    {
        if (_head is { IsRendezvous: true } segment)
        {
            return TryTakeOffered(segment, out message);
        }

        message = default!;
        return false;
    }

    /// <summary>
    /// <see cref="TryTakeOffered(out T)"/> in a rendezvous mailbox. Apart, so that the look of every other mailbox, a
    /// choice's at each branch and a timed receive's before it arms, is two loads in line rather than a call.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryTakeOffered(MailboxSegment<T> segment, out T message)
    {
        if (PullOffer(segment))
        {
            return TryTake(out message);
        }

        message = default!;
        return false;
    }
}
