using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// The waiting sends into a full bounded mailbox, for OS threads and asynchronous code: each joins the mailbox's
/// queue of waiting senders, looks for room once more, and waits until a receiver releases it (see
/// <see cref="WaiterQueue"/>). Green threads wait on a <see cref="PutEvent{T}"/> instead.
/// </summary>
internal static class BoundedSends
{
    /// <summary>The shared body of <c>SendAsync</c>: at once when there is room, without allocating; otherwise waits.</summary>
    internal static ValueTask SendAsync<T>(IBoundedTarget<T> target, T message, CancellationToken cancellationToken)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled(cancellationToken);
        }

        return target.TrySend(message) ? default : new ValueTask(SendWhenRoomAsync(target, message, cancellationToken));
    }

    /// <summary>The shared body of <c>Put</c>: the shared completed event when there is room, else a <see cref="PutEvent{T}"/> that waits.</summary>
    internal static Event Put<T>(IBoundedTarget<T> target, T message)
    {
        if (ThreadContext.Current.Worker is null)
        {
            throw new InvalidOperationException(
                $"Put() into {target} was called outside a green thread, which cannot yield the event it returns; call Send or SendAsync instead.");
        }

        return target.TrySend(message) ? SentEvent.Instance : new PutEvent<T>(target, message);
    }

    /// <summary>Sends from an OS thread, blocking while the mailbox is full; refuses a green thread, whose worker it would stall.</summary>
    internal static void SendBlocking<T>(IBoundedTarget<T> target, T message, CancellationToken cancellationToken)
    {
        if (ThreadContext.Current.Worker is { } worker)
        {
            throw new InvalidOperationException(
                $"{worker.RunningDescription} called Send on bounded {target}, which blocks while the mailbox is full and would stall its worker; yield return Put(message) instead, or call TrySend.");
        }

        Waiter? waiter = null;
        try
        {
            while (!target.TryAdd(message))
            {
                waiter ??= Waiter.ForOsThread();
                waiter.Signal!.Reset();
                var ticket = target.Room.Add(waiter);
                if (target.HasRoom() && waiter.TryWithdraw(ticket))
                {
                    continue;
                }

                waiter.Signal.Wait(cancellationToken);
            }
        }
        finally
        {
            if (waiter is not null)
            {
                waiter.TryWithdraw();
                waiter.Signal!.Dispose();
            }
        }
    }

    /// <summary>The rest of an asynchronous send once the mailbox was found full.</summary>
    internal static async Task SendWhenRoomAsync<T>(IBoundedTarget<T> target, T message, CancellationToken cancellationToken)
    {
        do
        {
            var waiter = Waiter.ForTask();
            var ticket = target.Room.Add(waiter);
            if (target.HasRoom() && waiter.TryWithdraw(ticket))
            {
                continue;
            }

            using (cancellationToken.UnsafeRegister(static state => WithdrawCancelled((Waiter)state!), waiter))
            {
                await waiter.Completion!.Task.ConfigureAwait(false);
            }

            cancellationToken.ThrowIfCancellationRequested();
        }
        while (!target.TryAdd(message));
    }

    private static void WithdrawCancelled(Waiter waiter)
    {
        // If a release woke the waiter first, the send goes on and sees the cancellation itself.
        if (waiter.TryWithdraw())
        {
            waiter.Completion!.TrySetResult();
        }
    }
}
