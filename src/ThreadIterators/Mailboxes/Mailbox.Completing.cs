using System;
using System.Diagnostics.CodeAnalysis;
using System.Threading;
using System.Threading.Channels;

namespace ThreadIterators;

// Completing a mailbox: an end segment (EndSegment.cs) linked behind the last one, as a growth links a larger segment,
// so that senders and the receiver find the end on the paths they already take for a full or an empty segment: the
// hop's send, wake and take check nothing new (reading Value reads one flag, step 10). Any thread.
//
// Complete (End; TryComplete is its body, Complete throws where it returns false):
//   1. Read the tail. The end segment: completed already.
//   2. No segment yet (null, or the parked sentinel): swap an end segment in as the first segment with a
//      compare-and-swap (or, if the first send got there first, read the tail again), then set the head to it. If the
//      swap replaced the sentinel, it took the park: wake the receiver.
//   3. Otherwise lock the tail segment, the lock every change of the tail holds, and check that it is still the tail (a
//      growth or a shrink may have moved it on: read the tail again).
//   4. Link an end segment as the tail's Next (it copies a bounded mailbox's capacity and room queue, so Capacity reads
//      the same and a late waiting sender is found), read the tail's Base, make the end segment the tail, then freeze
//      the old tail (one compare-and-swap, which also takes the parked bit), and set the end's Base from the frozen
//      count. This is growth's order, for growth's reasons (Mailbox.Growing.cs): Next before the freeze so a receiver
//      that drains it can move on, and the tail before the freeze so that a drained and pooled segment is never the
//      tail.
//   5. After the lock: if the freeze took the parked bit, wake the receiver as a sender would (WakeReceiver: a plain
//      receive is made ready, a choice's branch fired, an async reader woken, and the wake counted in _wakes for
//      Abandon).
//   6. A bounded mailbox: after the freeze's fence, release every sender waiting for room. Then let an attached async
//      reader see the end (TellChannelReader).
// The senders:
//   7. A send that reserved a slot of the old tail before the freeze is in, ahead of the end: the freeze fixes the
//      position the receiver drains to, as after a growth. A send after it finds the old tail frozen, or no longer the
//      tail, and goes to SendSlow, which reads the tail again, finds no room in the end segment (frozen), and refuses:
//      it returns false, after giving any wake-up it owes for a park mark it took on the way (replacing the parked
//      sentinel, or freezing the segment it grew) before it found the end. SendSlow wakes the receiver itself, so that
//      the hop's own wake-up (Append, after an append that took the mark) keeps nothing across the call. The end
//      segment is never grown. Send throws a ChannelClosedException; TrySend returns false.
//   8. A bounded send that finds no room asks IsCompleted before it waits and after each wake-up, and is refused if so:
//      Send throws, SendAsync faults, a put ends its green thread at the resume (BoundedSends). A sender that joins the
//      room queue after step 6 looks for room in the end segment, whose one slot reads as free, withdraws, tries again
//      and is refused. Step 6 and the waiting sender each pass a full fence between their write and their read, so
//      either the release sees the waiter or the waiter sees the end.
// The receiver:
//   9. It drains the old tail up to its frozen position and moves on to its Next, the end segment (giving the drained
//      segment to the pool, unless it is a bounded mailbox's own), which is frozen, holds nothing and has no Next: the
//      take finds nothing, with the head on the end segment. Every park on it fails (it is frozen), so a receive asks
//      AtEnd (the head is the end segment) only after a failed park, on a resume that found no message (the completion
//      woke it), and in a choice's look at an empty mailbox: never on the hop's path.
//  10. At the end the receive event records it (DeliverEnd: a flag set once and never cleared, since nothing can
//      follow, so a message costs no store), completes without parking, and Value throws a ChannelClosedException
//      naming the mailbox, with the completion's error inside (CompletionError, from the end segment). The mailbox has
//      no field for it: the error lives in the end segment, which exists only once the mailbox is completed.
// No message is lost or delivered after the end: a send's reservation and the freeze are compare-and-swaps on the same
// tail word, so each send is before the freeze (and drained before the end) or after it (and refused). ParkRaceTests
// holds a sender between its read of the tail and its append while the mailbox is completed (it is refused), and
// completes the mailbox while a growing sender, which has frozen the segment its receiver parked on, is about to append
// to the new one (TestHooks.BeforeSlowAppend): refused, it still wakes the receiver, which finds the end. A shared
// mailbox's completion is in the header of SharedMailbox.cs; a bounded mailbox whose receiver ends is completed in the
// receiver's name (Mailbox.ReceiverEnding.cs).
public sealed partial class Mailbox<T>
{
    /// <summary>
    /// Gets the error the mailbox was completed with, or null (also while it is not completed). Any thread.
    /// </summary>
    internal Exception? CompletionError => (Volatile.Read(ref _tail) as EndSegment<T>)?.Error;

    /// <summary>
    /// Gets the receiver whose end completed the mailbox (a bounded one that does not outlive it), or null: not
    /// completed, or completed by a sender. So a refused send can tell the one from the other. Any thread.
    /// </summary>
    internal GreenThread? EndedReceiver => (Volatile.Read(ref _tail) as EndSegment<T>)?.EndedReceiver;

    /// <summary>
    /// Gets a value indicating whether the receiver has taken every message of a completed mailbox: its head is the
    /// end segment, which it moves onto only once the segment before is frozen and drained. Receiver only, after a
    /// take found nothing.
    /// </summary>
    internal bool AtEnd => _head is EndSegment<T>;

    /// <inheritdoc/>
    ChannelClosedException IBoundedTarget<T>.Refusal() => Refusal();

    /// <summary>
    /// Completes the mailbox unless it is completed already: links an end segment behind the tail, makes it the tail,
    /// and freezes the segment before it, whose frozen position is where the receiver's messages end. Wakes a
    /// receiver parked on the empty mailbox, and every sender waiting for room. Any thread.
    /// </summary>
    /// <param name="error">The completion's error, or null.</param>
    /// <param name="endedReceiver">The receiver whose end completes the mailbox (see <see cref="OutlivesReceiver"/>), or null for a completion by a sender.</param>
    private bool End(Exception? error, GreenThread? endedReceiver = null)
    {
        while (true)
        {
            var tail = Volatile.Read(ref _tail);
            if (tail is EndSegment<T>)
            {
                return false;
            }

            if (tail is null || tail == s_parkedEmpty)
            {
                // Never sent to: the end is the first segment. Only one swap succeeds, the first send's or this one,
                // and only its maker sets _head; a receiver that sees the segment first waits for that.
                var first = new EndSegment<T>(error, FirstSegmentSlots, room: null, capacity: 0) { EndedReceiver = endedReceiver };
                if (Interlocked.CompareExchange(ref _tail, first, tail) != tail)
                {
                    continue;
                }

                Volatile.Write(ref _head, first);
                if (tail == s_parkedEmpty)
                {
                    // The receiver parked by swapping in the sentinel; replacing it takes that park's mark.
                    WakeReceiver(OsThreadContext.Current);
                }

                TellChannelReader();
                return true;
            }

            bool wake;
            lock (tail)
            {
                // Under the lock every change of the tail holds, in growth's order (see Grow): the successor is
                // linked, then the tail moves, then the old tail freezes. A send that appended to the old tail before
                // the freeze is in, ahead of the end; one after it finds the segment frozen, reads the new tail, and
                // is refused. A sender holding the old tail after a growth or shrink moved it on finds it stale.
                if (Volatile.Read(ref _tail) != tail)
                {
                    continue;
                }

                var end = new EndSegment<T>(error, tail.Bound, tail.Room, tail.Capacity) { EndedReceiver = endedReceiver };
                Volatile.Write(ref tail.Next, end);
                var tailBase = tail.Base;
                Volatile.Write(ref _tail, end);
                wake = tail.Freeze(out var appended);
                Volatile.Write(ref end.Base, tailBase + appended);
            }

            if (wake)
            {
                // The receiver had drained the segment and parked on it; the freeze took its mark.
                WakeReceiver(OsThreadContext.Current);
            }

            if (tail.Room is { } room && room.Count != 0)
            {
                // After a full fence (the freeze's swap): a sender that queued for room before it is seen here, and
                // one that queues after it looks for room in the end segment, finds some (its slot reads as free),
                // tries again and is refused.
                room.Release(int.MaxValue);
            }

            TellChannelReader();
            return true;
        }
    }

    /// <summary>
    /// Lets async code that receives through <see cref="AsChannelReader"/> see the end even while it is not waiting,
    /// so that the reader's <c>Completion</c> completes once nothing is left to read, as a channel's does.
    /// </summary>
    private void TellChannelReader()
    {
        if (Volatile.Read(ref _chooser) is MailboxChannelReader<T> { IsAttached: true } reader)
        {
            reader.OnMailboxCompleted();
        }
    }

    /// <summary>Makes the exception a refused send throws, naming the mailbox, with the completion's error inside.</summary>
    private ChannelClosedException Refusal() =>
        EndedReceiver is { } ended
            ? new($"{this} takes no more messages: its receiver {ended} has ended ({ended.Scheduler}), and this one was not sent.", CompletionError)
            : new($"{this} was completed: it takes no more messages, and this one was not sent.", CompletionError);

    // Not inlined, and seen by the JIT to throw, so the check that calls it costs the caller a compare and a branch.
    [DoesNotReturn]
    private void ThrowCompleted() => throw Refusal();
}
