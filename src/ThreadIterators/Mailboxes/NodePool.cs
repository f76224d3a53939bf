using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Recycles <see cref="MessageNode{T}"/>s. Each OS thread keeps its own stack of free nodes in its
/// <see cref="ThreadContext"/> (no synchronisation on the hot path); a stack that fills up hands half to a shared list, and an empty one takes a batch back, so nodes
/// flow from the workers that receive to the threads that send.
/// </summary>
/// <remarks>Any thread. A thread's stack is touched only by that thread; the shared list under a lock.</remarks>
/// <typeparam name="T">The message type.</typeparam>
internal static class NodePool<T>
{
    /// <summary>Nodes moved between a thread's stack and the shared list at a time. Guessed; one lock per this many messages.</summary>
    private const int Batch = 256;

    /// <summary>The most nodes the shared list keeps; beyond it nodes go to the garbage collector.</summary>
    private const int SharedLimit = 64 * 1024;

    /// <summary>This message type's slot in <see cref="ThreadContext.NodeStacks"/>.</summary>
    private static readonly int s_slot = ThreadContext.AllocateSlot();

    /// <summary>Whether a pooled node must drop its message so the pool keeps no message alive.</summary>
    private static readonly bool s_clearValues = RuntimeHelpers.IsReferenceOrContainsReferences<T>();

    /// <summary>Guards <see cref="s_shared"/> and <see cref="s_sharedCount"/>.</summary>
    private static readonly object s_lock = new();

    /// <summary>The shared list of free nodes, linked through <see cref="MessageNode{T}.Next"/>.</summary>
    private static MessageNode<T>? s_shared;

    /// <summary>How many nodes <see cref="s_shared"/> holds.</summary>
    private static int s_sharedCount;

    /// <summary>Takes a node whose <see cref="MessageNode{T}.Next"/> is null from the calling thread's cache.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static MessageNode<T> Rent(ThreadContext cache)
    {

        var stacks = cache.NodeStacks;
        if ((uint)s_slot < (uint)stacks.Length && stacks[s_slot] is { } slot)
        {
            var stack = Unsafe.As<Stack>(slot);
            var count = stack.Count;
            if (count > 0)
            {
                stack.Count = count - 1;
                var node = stack.Items[count - 1];
                node.Next = null;
                return node;
            }
        }

        return RentSlow(cache);
    }

    /// <summary>Gives back a node nobody else references any more to the calling thread's cache.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static void Return(MessageNode<T> node, ThreadContext cache)
    {

        if (s_clearValues)
        {
            node.Value = default!;
        }

        var stacks = cache.NodeStacks;
        if ((uint)s_slot < (uint)stacks.Length && stacks[s_slot] is { } slot)
        {
            var stack = Unsafe.As<Stack>(slot);
            var count = stack.Count;
            if (count < stack.Items.Length)
            {
                stack.Items[count] = node;
                stack.Count = count + 1;
                return;
            }
        }

        ReturnSlow(node, cache);
    }

    private static Stack GetStack(ThreadContext cache)
    {
        var stacks = cache.NodeStacks;
        if ((uint)s_slot >= (uint)stacks.Length)
        {
            var grown = new object?[Math.Max(s_slot + 1, 2 * stacks.Length)];
            stacks.CopyTo(grown, 0);
            cache.NodeStacks = stacks = grown;
        }

        return stacks[s_slot] as Stack ?? (Stack)(stacks[s_slot] = new Stack());
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static MessageNode<T> RentSlow(ThreadContext cache)
    {
        var stack = GetStack(cache);
        lock (s_lock)
        {
            while (stack.Count < Batch && s_shared is { } node)
            {
                s_shared = node.Next;
                s_sharedCount--;
                stack.Items[stack.Count++] = node;
            }
        }

        if (stack.Count == 0)
        {
            return new MessageNode<T>();
        }

        var taken = stack.Items[--stack.Count];
        taken.Next = null;
        return taken;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ReturnSlow(MessageNode<T> node, ThreadContext cache)
    {
        var stack = GetStack(cache);
        if (stack.Count == stack.Items.Length)
        {
            lock (s_lock)
            {
                for (var i = 0; i < Batch && s_sharedCount < SharedLimit; i++)
                {
                    var given = stack.Items[--stack.Count];
                    given.Next = s_shared;
                    s_shared = given;
                    s_sharedCount++;
                }
            }

            // Nodes the shared list had no room for go to the garbage collector.
            if (stack.Count == stack.Items.Length)
            {
                stack.Count -= Batch;
            }
        }

        stack.Items[stack.Count++] = node;
    }

    /// <summary>One thread's free nodes of this message type.</summary>
    private sealed class Stack
    {
        /// <summary>The free nodes; the first <see cref="Count"/> are valid.</summary>
        internal readonly MessageNode<T>[] Items = new MessageNode<T>[2 * Batch];

        /// <summary>How many of <see cref="Items"/> are free nodes.</summary>
        internal int Count;
    }
}
