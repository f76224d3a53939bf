using System.Threading;

namespace ThreadIterators;

// Taking a receiver's wait back: a stop or an expired timeout takes the park mark, and a disposal abandons the wait.
// Any thread, against the senders that would wake the receiver.
public sealed partial class Mailbox<T>
{
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
        else if (segment is { IsRendezvous: true, Room.Count: > 0 })
        {
            // A rendezvous sender that came while the mark was held found no receiver waiting and queued: the mark is
            // back, so release one to hand over, as the receiver's park would have.
            segment.Room.Release(1);
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
}
