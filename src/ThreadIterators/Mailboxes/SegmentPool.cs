using System.Collections.Generic;
using System.Diagnostics;
using System.Numerics;

namespace ThreadIterators;

/// <summary>
/// Drained <see cref="MailboxSegment{T}"/>s of one message type, by slot count, for any mailbox to reuse. A ring of
/// N forwarders passing M messages then needs segments for the M messages in flight, not N mailboxes' worth of the
/// deepest each one ever got.
/// </summary>
/// <remarks>
/// <para>
/// Any thread, under one lock per slot count. Segments are rented when a mailbox grows or gets its first message and
/// returned when a receiver drains or shrinks one, so the lock is taken once per segment, never per message. A segment
/// comes here only once it is no longer its mailbox's tail, and is renewed (a new life in its tail word) before it
/// becomes a tail again: the growth order in the header of <c>Mailbox.Growing.cs</c> says why.
/// </para>
/// <para>
/// Measured on the ring sample (N = 10,000 forwarders, M = 1,000 messages, one worker): 0.17 bytes per hop, the
/// 10,000 mailboxes' first segments and some 16- and 64-slot ones (docs/benchmarks.md, "The ring sample"); segments
/// owned by their mailbox, without a pool, took 20 bytes per hop (docs/history.md, "Designs measured and rejected").
/// </para>
/// </remarks>
/// <typeparam name="T">The message type.</typeparam>
internal static class SegmentPool<T>
{
    /// <summary>Most slots kept per segment size (16 MB of <see cref="long"/> messages); beyond that, segments go to the garbage collector. Guessed.</summary>
    private const int SlotsKeptPerSize = 1 << 20;

    /// <summary>Free segments by slot count: index k holds segments of 4^(k+1) slots.</summary>
    private static readonly Stack<MailboxSegment<T>>[] s_free = CreateStacks();

    /// <summary>Takes a renewed segment of <paramref name="slotCount"/> slots (a power of four), or makes one.</summary>
    internal static MailboxSegment<T> Rent(int slotCount)
    {
        AssertGrowthSize(slotCount);
        var free = s_free[IndexOf(slotCount)];
        lock (free)
        {
            if (free.TryPop(out var segment))
            {
                segment.AssertRenewed();
                return segment;
            }
        }

        return new MailboxSegment<T>(slotCount);
    }

    /// <summary>Renews and keeps a drained segment that no mailbox references any more.</summary>
    internal static void Return(MailboxSegment<T> segment)
    {
        AssertGrowthSize(segment.SlotCount);
        segment.Renew();
        var free = s_free[IndexOf(segment.SlotCount)];
        lock (free)
        {
            if (free.Count < SlotsKeptPerSize / segment.SlotCount)
            {
                free.Push(segment);
            }
        }
    }

    /// <summary>Checks that a pooled size is a power of the mailbox's growth factor, 4, which <see cref="IndexOf"/> assumes.</summary>
    [Conditional("DEBUG")]
    private static void AssertGrowthSize(int slotCount)
    {
        Debug.Assert(
            BitOperations.IsPow2(slotCount) && slotCount >= 4 && BitOperations.Log2((uint)slotCount) % 2 == 0,
            $"A segment of {slotCount} slots was rented or returned; pooled segments are powers of 4 from 4.");
    }

    private static int IndexOf(int slotCount) => (BitOperations.Log2((uint)slotCount) / 2) - 1;

    private static Stack<MailboxSegment<T>>[] CreateStacks()
    {
        // One per pooled size: 4, 16, ... up to the largest segment a mailbox grows.
        var stacks = new Stack<MailboxSegment<T>>[IndexOf(Mailbox<T>.MaxSegmentSlots) + 1];
        for (var i = 0; i < stacks.Length; i++)
        {
            stacks[i] = new Stack<MailboxSegment<T>>();
        }

        return stacks;
    }
}
