using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The asks waiting for their mailbox's next receiver (<see cref="IUnservedAsk"/>), and the listener that hands them
/// to it when it binds: request-reply's side of the handshake whose steps <see cref="ReceiverBinds"/> gives. Any
/// thread: an asking thread records, a binding green thread (or the asking thread, if it sees the receiver first)
/// serves; the lists and their count only under the lock.
/// </summary>
/// <remarks>
/// The lists are kept beside the mailboxes rather than in them: a field per mailbox would cost every mailbox 8 bytes
/// for a case that is rare, and a mailbox that is collected takes its list with it. The listener is published while
/// a list is recorded, so that a bind pays one volatile read while no ask waits. A list whose mailbox was collected
/// unbound stays counted, which costs later binds a lookup only.
/// </remarks>
internal sealed class UnservedAsks : IReceiverBindListener
{
    /// <summary>The one listener, published in <see cref="ReceiverBinds"/> while a list is recorded.</summary>
    private static readonly UnservedAsks s_listener = new();

    /// <summary>Each mailbox's asks waiting for a receiver; also the lock of the lists, their count and the listener's publication.</summary>
    private static readonly ConditionalWeakTable<object, List<IUnservedAsk>> s_waiting = new();

    /// <summary>Lists recorded and not yet taken; under the lock of <see cref="s_waiting"/>.</summary>
    private static int s_lists;

    private UnservedAsks()
    {
    }

    /// <summary>
    /// Records an ask in <paramref name="mailbox"/>'s list and publishes the listener, then a full fence (step 1 of
    /// <see cref="ReceiverBinds"/>; the caller then reads the receiver). The asking thread.
    /// </summary>
    internal static void Add(object mailbox, IUnservedAsk ask)
    {
        lock (s_waiting)
        {
            if (!s_waiting.TryGetValue(mailbox, out var list))
            {
                list = [];
                s_waiting.Add(mailbox, list);
                CountLists(+1);
            }
            else if (list.Count >= 16)
            {
                // Asks that timed out waiting stay until a receiver comes; drop them as the list grows.
                list.RemoveAll(static a => a.IsDecided);
            }

            list.Add(ask);
        }

        Interlocked.MemoryBarrier();
    }

    /// <summary>
    /// Takes <paramref name="mailbox"/>'s list, if it still has one (step 3: one taker), and makes each ask still
    /// waiting watch <paramref name="receiver"/>. The binding green thread, or the asking thread that saw it bound.
    /// </summary>
    internal static void Serve(object mailbox, GreenThread receiver)
    {
        List<IUnservedAsk>? asks;
        lock (s_waiting)
        {
            if (!s_waiting.TryGetValue(mailbox, out asks))
            {
                return;
            }

            s_waiting.Remove(mailbox);
            CountLists(-1);
        }

        // Outside the lock: a watch on a receiver that has ended already fires at once, into the ask's decision.
        foreach (var ask in asks)
        {
            if (!ask.IsDecided)
            {
                ask.WatchServer(receiver);
            }
        }
    }

    /// <summary>Step 2's call, from a bind that read the listener: the bound receiver serves the mailbox's asks.</summary>
    void IReceiverBindListener.ReceiverBound(object mailbox, GreenThread receiver) => Serve(mailbox, receiver);

    /// <summary>
    /// Counts a list recorded or taken, publishing the listener at the first and withdrawing it after the last (step 4:
    /// under the lock, so the listener is published exactly while a list is recorded). The lock of
    /// <see cref="s_waiting"/> held.
    /// </summary>
    private static void CountLists(int change)
    {
        Debug.Assert(Monitor.IsEntered(s_waiting), "The lists are counted under their lock.");
        var before = s_lists;
        s_lists = before + change;
        Debug.Assert(s_lists >= 0, "A list is taken once, after it was recorded.");
        if (before == 0)
        {
            ReceiverBinds.Listen(s_listener);
        }
        else if (s_lists == 0)
        {
            ReceiverBinds.Listen(null);
        }
    }
}
