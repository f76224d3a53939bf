using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// The asks waiting for their mailbox's first receiver (<see cref="IUnservedAsk"/>), kept beside the mailboxes rather
/// than in them: a field per mailbox would cost every mailbox 8 bytes for a case that is rare, and a mailbox that
/// is collected takes its list with it.
/// </summary>
/// <remarks>
/// Handshake with a receiver binding (Dekker's, both sides full fences): an ask adds itself, then looks at the
/// receiver; a bind sets the receiver, then looks at <see cref="Any"/>. At least one of the two sees the other, and
/// whichever does takes the list (under the lock, so only one gets it) and arms the watches. <see cref="Any"/> keeps
/// the look off every bind, which Skynet makes a million times: one volatile read while no ask waits. It counts
/// lists, and a list whose mailbox was collected unbound leaves it counted, which costs later binds a lookup only.
/// </remarks>
internal static class UnservedAsks
{
    private static readonly ConditionalWeakTable<object, List<IUnservedAsk>> s_waiting = new();

    /// <summary>Lists added and not yet taken.</summary>
    private static int s_lists;

    /// <summary>Gets a value indicating whether any ask may wait for a receiver.</summary>
    internal static bool Any => Volatile.Read(ref s_lists) != 0;

    /// <summary>Adds an ask to <paramref name="mailbox"/>'s list; a full fence. Any thread.</summary>
    internal static void Add(object mailbox, IUnservedAsk ask)
    {
        lock (s_waiting)
        {
            if (!s_waiting.TryGetValue(mailbox, out var list))
            {
                list = [];
                s_waiting.Add(mailbox, list);
                Interlocked.Increment(ref s_lists);
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

    /// <summary>Takes <paramref name="mailbox"/>'s list, or null if it has none. Any thread.</summary>
    internal static List<IUnservedAsk>? Take(object mailbox)
    {
        lock (s_waiting)
        {
            if (!s_waiting.TryGetValue(mailbox, out var list))
            {
                return null;
            }

            s_waiting.Remove(mailbox);
            Interlocked.Decrement(ref s_lists);
            return list;
        }
    }
}
