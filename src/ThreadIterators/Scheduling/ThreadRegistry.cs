using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The set of live green threads, so disposal can reach threads that are parked and referenced only by a mailbox.
/// Intrusive doubly linked lists (no allocation per thread), striped by block of thread ids so spawns and exits on
/// different workers rarely meet on a lock.
/// </summary>
/// <remarks>Any thread; each stripe's list is guarded by that stripe's spin lock (<see cref="Stripe.Enter"/>).</remarks>
internal sealed class ThreadRegistry
{
    /// <summary>Number of stripes; a power of two comfortably above the worker counts this runs with. Guessed.</summary>
    private const int StripeCount = 16;

    /// <summary>The stripes.</summary>
    private readonly Stripe[] _stripes = new Stripe[StripeCount];

    internal ThreadRegistry()
    {
        for (var i = 0; i < StripeCount; i++)
        {
            _stripes[i] = new Stripe();
        }
    }

    internal void Add(GreenThread thread)
    {
        var stripe = StripeOf(thread);
        stripe.Enter();
        try
        {
            thread.NextLive = stripe.First;
            if (stripe.First is not null)
            {
                stripe.First.PreviousLive = thread;
            }

            stripe.First = thread;
        }
        finally
        {
            stripe.Exit();
        }
    }

    /// <summary>Removes a live thread; returns false if <see cref="TakeAll"/> took it first.</summary>
    internal bool Remove(GreenThread thread)
    {
        var stripe = StripeOf(thread);
        stripe.Enter();
        try
        {
            if (thread.PreviousLive is null)
            {
                if (stripe.First != thread)
                {
                    // Already taken by TakeAll.
                    return false;
                }

                stripe.First = thread.NextLive;
            }
            else
            {
                thread.PreviousLive.NextLive = thread.NextLive;
            }

            if (thread.NextLive is not null)
            {
                thread.NextLive.PreviousLive = thread.PreviousLive;
            }

            thread.PreviousLive = null;
            thread.NextLive = null;
            return true;
        }
        finally
        {
            stripe.Exit();
        }
    }

    /// <summary>
    /// Finds a live thread by id, walking its stripe's list under its lock, newest thread first: for exception
    /// messages, which name the thread, and for a thread's first read of <see cref="GreenThread.Current"/>. Null once
    /// the thread has ended.
    /// </summary>
    /// <remarks>
    /// The walk is as long as the list: the threads of every 16th block of ids. An index by id found in one step,
    /// but measured slower on Skynet by 16 to 32% (docs/architecture.md, "Designs measured and rejected"): the lists
    /// link threads spawned one after another, which a worker's exits then touch while they are still in cache.
    /// </remarks>
    internal GreenThread? Find(long id)
    {
        var stripe = _stripes[(int)((id / Worker.IdBlock) & (StripeCount - 1))];
        stripe.Enter();
        try
        {
            for (var thread = stripe.First; thread is not null; thread = thread.NextLive)
            {
                if (thread.Id == id)
                {
                    return thread;
                }
            }
        }
        finally
        {
            stripe.Exit();
        }

        return null;
    }

    /// <summary>Returns every thread the registry holds now, leaving them in it; for a report, off every hot path.</summary>
    internal List<GreenThread> Snapshot()
    {
        var all = new List<GreenThread>();
        foreach (var stripe in _stripes)
        {
            stripe.Enter();
            try
            {
                for (var thread = stripe.First; thread is not null; thread = thread.NextLive)
                {
                    all.Add(thread);
                }
            }
            finally
            {
                stripe.Exit();
            }
        }

        return all;
    }

    /// <summary>Empties the registry and returns every thread it held.</summary>
    internal List<GreenThread> TakeAll()
    {
        var all = new List<GreenThread>();
        foreach (var stripe in _stripes)
        {
            stripe.Enter();
            try
            {
                for (var thread = stripe.First; thread is not null;)
                {
                    var next = thread.NextLive;
                    thread.PreviousLive = null;
                    thread.NextLive = null;
                    all.Add(thread);
                    thread = next;
                }

                stripe.First = null;
            }
            finally
            {
                stripe.Exit();
            }
        }

        return all;
    }

    /// <summary>
    /// Threads of one id block, which one worker spawned, share a stripe, so a worker's spawns and exits mostly take
    /// a lock whose cache line stays on its own core.
    /// </summary>
    private Stripe StripeOf(GreenThread thread) => _stripes[(int)((thread.Id / Worker.IdBlock) & (StripeCount - 1))];

    /// <summary>One list and its lock.</summary>
    private sealed class Stripe
    {
        /// <summary>The most recently added live thread of this stripe.</summary>
        internal GreenThread? First;

        /// <summary>1 while a thread holds the stripe (see <see cref="Enter"/>).</summary>
        private int _held;

        /// <summary>
        /// Takes the stripe: one exchange, and a plain store to leave it. A monitor (<c>lock</c>) costs an
        /// interlocked operation to enter and another to leave; every spawn and every end takes a stripe once, so
        /// that second one cost Skynet (1.1M spawns and ends) about 12 ms per run: 112-114 against 99-101 ms on one
        /// worker, 83-87 against 76-80 on two. What a stripe guards is a few
        /// reference writes, or a walk of its list for a report, so a waiter spins and then yields its OS thread
        /// (<see cref="SpinWait"/>) rather than blocking.
        /// </summary>
        internal void Enter()
        {
            if (Interlocked.Exchange(ref _held, 1) != 0)
            {
                EnterContended();
            }
        }

        /// <summary>Leaves the stripe; by the thread that entered it.</summary>
        internal void Exit() => Volatile.Write(ref _held, 0);

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void EnterContended()
        {
            var spinner = default(SpinWait);
            do
            {
                spinner.SpinOnce();
            }
            while (Volatile.Read(ref _held) != 0 || Interlocked.Exchange(ref _held, 1) != 0);
        }

        /// <summary>
        /// Keeps the next stripe's lock word and list head off this stripe's cache lines. The stripes are allocated
        /// one after another, so without it several shared a line, and every spawn and end on one worker took that
        /// line from the other although the two used different stripes: Skynet 1M on 2 workers took 162-209 ms
        /// against 82-107 ms padded (1 worker 107-116 ms either way).
        /// </summary>
#pragma warning disable CS0169, IDE0051 // Never read: they are there for their size, two 64-byte lines (x86 prefetches lines in adjacent pairs).
        private long _pad0, _pad1, _pad2, _pad3, _pad4, _pad5, _pad6, _pad7, _pad8, _pad9, _pad10, _pad11, _pad12, _pad13, _pad14, _pad15;
#pragma warning restore CS0169, IDE0051
    }
}
