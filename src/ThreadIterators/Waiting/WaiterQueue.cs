using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Waiters in the order they started waiting: senders waiting for room in a bounded mailbox, or receivers of a
/// <see cref="SharedMailbox{T}"/> waiting for a message.
/// </summary>
/// <remarks>
/// <para>
/// A waiter adds itself (<see cref="Add(Waiter)"/> passes a full fence), then looks once more for what it waits for, and
/// withdraws if it is there. The other side first makes it available, then reads <see cref="Count"/> and releases.
/// Whether the other side needs a fence of its own depends on the caller; see where each one releases.
/// </para>
/// <para>Any thread, under the queue's lock; <see cref="Count"/> is read without it.</para>
/// </remarks>
internal sealed class WaiterQueue
{
    private readonly Queue<Waiter> _waiters = new();

    /// <summary>Waiters in the queue, withdrawn ones included until a release drops them.</summary>
    private int _count;

    /// <summary>The last ticket handed out. Under the lock.</summary>
    private long _tickets;

    internal WaiterQueue(int releaseAt = 1) => ReleaseAt = releaseAt;

    /// <summary>
    /// Gets how much must be free before a bounded mailbox releases waiting senders: a quarter of the capacity (at
    /// least one), so a producer that outruns its consumer parks once per quarter rather than once per message.
    /// </summary>
    internal int ReleaseAt { get; }

    /// <summary>Gets the number of queued waiters; a snapshot.</summary>
    internal int Count => Volatile.Read(ref _count);

    /// <summary>
    /// Starts a wait (queuing the waiter unless it still is) and passes a full fence before the caller looks again.
    /// Returns the wait's ticket, for <see cref="Waiter.TryWithdraw(long)"/>.
    /// </summary>
    internal long Add(Waiter waiter) => Add(waiter, null, 0);

    /// <summary>As <see cref="Add(Waiter)"/>, for a green thread waiting in a choice: the release fires <paramref name="branch"/> for wait <paramref name="generation"/>.</summary>
    internal long Add(Waiter waiter, ChoiceBranch? branch, long generation)
    {
        long ticket;
        lock (_waiters)
        {
            waiter.Branch = branch;
            waiter.BranchGeneration = generation;
            ticket = ++_tickets << 2;
            Debug.Assert(
                ticket > (Volatile.Read(ref waiter.State) & ~Waiter.StateMask),
                "A waiter's new ticket is not above its last: it waited in another queue, and a late withdrawal of an old wait could cancel the new one.");
            Volatile.Write(ref waiter.State, ticket | Waiter.Waiting);
            if (!waiter.Queued)
            {
                waiter.Queued = true;
                _waiters.Enqueue(waiter);
                Volatile.Write(ref _count, _waiters.Count);
            }
        }

        // Store-load fence: the count must be visible before the caller looks again for what it waits for.
        Interlocked.MemoryBarrier();
        return ticket;
    }

    /// <summary>Wakes up to <paramref name="most"/> waiters, oldest first, dropping withdrawn ones on the way.</summary>
    internal void Release(int most)
    {
        lock (_waiters)
        {
            while (most > 0 && _waiters.TryDequeue(out var waiter))
            {
                waiter.Queued = false;
                var state = Volatile.Read(ref waiter.State);
                if ((state & Waiter.StateMask) == Waiter.Waiting
                    && Interlocked.CompareExchange(ref waiter.State, (state & ~Waiter.StateMask) | Waiter.Woken, state) == state)
                {
                    waiter.Wake();
                    most--;
                }
            }

            Volatile.Write(ref _count, _waiters.Count);
        }
    }

    /// <summary>
    /// For a rendezvous mailbox's receiver: takes the message of the oldest waiting sender that commits, ending its wait
    /// as <see cref="Waiter.Taken"/> and letting it go on; drops withdrawn waiters on the way. A sender waiting in a
    /// choice commits only if this fires its branch: its state is swapped to taken first, so neither its withdrawal nor
    /// a release can end the wait meanwhile, and the message is read before the fire, while the choice cannot move on.
    /// A fire that loses (another branch won) takes nothing, and the next waiter is tried. False if no waiter
    /// committed. The receiver, under the caller's lock on the mailbox's segment.
    /// </summary>
    internal bool TryTakeOffer<T>(out T message)
    {
        lock (_waiters)
        {
            try
            {
                while (_waiters.TryDequeue(out var waiter))
                {
                    waiter.Queued = false;
                    var state = Volatile.Read(ref waiter.State);
                    if ((state & Waiter.StateMask) != Waiter.Waiting
                        || Interlocked.CompareExchange(ref waiter.State, (state & ~Waiter.StateMask) | Waiter.Taken, state) != state)
                    {
                        continue;
                    }

                    var offered = waiter.Offer is PutEvent<T> put ? put.Offered : ((StrongBox<T>)waiter.Offer!).Value!;
                    if (waiter.Branch is { } branch)
                    {
                        if (!branch.Fire(waiter.BranchGeneration, alongside: true))
                        {
                            continue;
                        }
                    }
                    else
                    {
                        waiter.WakePlain();
                    }

                    message = offered;
                    return true;
                }

                message = default!;
                return false;
            }
            finally
            {
                Volatile.Write(ref _count, _waiters.Count);
            }
        }
    }
}
