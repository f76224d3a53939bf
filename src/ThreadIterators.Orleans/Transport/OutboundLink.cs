using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;
using Orleans.Runtime;

namespace ThreadIterators.Orleans;

/// <summary>
/// The messages this silo sends one destination (a process's grain, or another silo's observer), carried in order: a queue, and at most one grain call in flight that
/// carries the front of it (steps 2 and 3 of ProcessNode.cs). Any thread enqueues; one flush at a time carries.
/// </summary>
/// <remarks>
/// Each message gets the link's next number. A call whose outcome the link did not learn (a timeout, a lost
/// connection) is tried again with the same numbers, marked as a retry and naming the incarnation the link last
/// reached, and the receiving activation skips numbers it has taken: nothing is taken twice. A retry that reaches
/// another incarnation is dropped there, and its messages are dead letters here: at most once, never twice.
/// </remarks>
internal sealed partial class OutboundLink
{
    /// <summary>Attempts per batch: with the growing delay, about 4 s of an activation going away or a silo not answering.</summary>
    private const int Attempts = 12;

    private static readonly TimeSpan RetryDelay = TimeSpan.FromMilliseconds(60);

    private readonly ProcessNode _node;
    private readonly string _name;
    private readonly object _target;
    private readonly Func<DeliveryBatch, Task<DeliveryReceipt>> _carry;

    private readonly Guid _id = Guid.NewGuid();
    private readonly object _gate = new();
    private List<object?> _queue = [];
    private List<object?>? _spare;
    private long _nextSequence;
    private Guid _incarnation;

    /// <summary>Whether a flush runs: set, under the lock, by the send that starts one; cleared by the flush that finds the queue empty.</summary>
    private volatile bool _flushing;

    /// <summary>How many messages have been queued, and carried; under the lock. A message's position is its count.</summary>
    private long _enqueued;
    private long _carried;

    /// <summary>
    /// The positions of the messages put (<see cref="ProcessRef{T}.Put"/>) and not yet carried, oldest first; each
    /// holds a credit of <see cref="_puts"/>, given back as it is carried. Under the lock.
    /// </summary>
    private Queue<long>? _putPositions;

    /// <summary>The put window (<see cref="Puts"/>), made by the first put through the link.</summary>
    private CreditWindow? _puts;

    /// <summary>Who waits for a position to be carried (<see cref="WhenCarried"/>); under the lock.</summary>
    private List<(long Position, TaskCompletionSource Waiter)>? _waiters;

    /// <summary>Whether a message was queued since the last sweep; and whether the link is retired. Under the lock.</summary>
    private bool _usedInSweep;
    private bool _retired;

    /// <summary>The largest list kept for the next batch; a larger one, from a burst, is let go.</summary>
    private const int SpareCapacity = 4096;

    /// <param name="node">This silo's node.</param>
    /// <param name="name">What the log calls the destination.</param>
    /// <param name="target">What a dead letter names as its mailbox.</param>
    /// <param name="carry">Makes the grain call that carries a batch.</param>
    internal OutboundLink(ProcessNode node, string name, object target, Func<DeliveryBatch, Task<DeliveryReceipt>> carry)
    {
        _node = node;
        _name = name;
        _target = target;
        _carry = carry;
    }

    /// <summary>Gets whether nothing is queued or in flight: every message sent through the link has been taken or refused.</summary>
    internal bool IsIdle => !_flushing;

    /// <summary>
    /// Gets the credits of the puts through this link: a put takes one before it queues its message
    /// (<see cref="TryEnqueue"/> with <c>put</c>), and gets it back once the message is carried, so at most
    /// <see cref="ThreadIteratorsClusterOptions.PutWindow"/> put messages are on their way at once.
    /// </summary>
    internal CreditWindow Puts
    {
        get
        {
            if (Volatile.Read(ref _puts) is { } puts)
            {
                return puts;
            }

            Interlocked.CompareExchange(ref _puts, new CreditWindow(_node.PutWindow, $"puts to {_name}"), null);
            return _puts!;
        }
    }

    /// <summary>
    /// Queues a message, numbered by its place in the link (<paramref name="position"/>); starts a flush if none runs.
    /// Never blocks but for the lock around a list append. False if the link has been retired (idle, and dropped from
    /// its node): the caller takes the node's new link for the destination. A message <paramref name="put"/> holds a
    /// credit of <see cref="Puts"/>, given back as it is carried.
    /// </summary>
    internal bool TryEnqueue(object? message, out long position, bool put = false)
    {
        bool start;
        lock (_gate)
        {
            if (_retired)
            {
                position = 0;
                return false;
            }

            _queue.Add(message);
            position = ++_enqueued;
            if (put)
            {
                (_putPositions ??= new Queue<long>()).Enqueue(position);
            }

            _usedInSweep = true;
            start = !_flushing;
            _flushing = true;
        }

        if (start)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static link => _ = link.FlushAsync(), this, preferLocal: false);
        }

        return true;
    }

    /// <summary>Gets a task that completes once everything queued on the link so far has been carried.</summary>
    internal Task WhenAllCarried()
    {
        long position;
        lock (_gate)
        {
            position = _enqueued;
        }

        return WhenCarried(position);
    }

    /// <summary>
    /// Gets a task that completes once the message at <paramref name="position"/> has been carried: taken, refused,
    /// or given up as a dead letter.
    /// </summary>
    internal Task WhenCarried(long position)
    {
        lock (_gate)
        {
            if (_carried >= position)
            {
                return Task.CompletedTask;
            }

            var waiter = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            (_waiters ??= []).Add((position, waiter));
            return waiter.Task;
        }
    }

    /// <summary>
    /// Retires the link if it has been idle since the last sweep (nothing queued or sent through it in between): it
    /// takes no more messages, and the node drops it. A later send to the destination makes a new link, numbered
    /// afresh: everything sent through this one has been carried, so nothing can overtake it.
    /// </summary>
    internal bool TryRetire()
    {
        lock (_gate)
        {
            if (_flushing || _usedInSweep)
            {
                _usedInSweep = false;
                return false;
            }

            _retired = true;
            return true;
        }
    }

    private async Task FlushAsync()
    {
        while (true)
        {
            List<object?> taken;
            long first;
            lock (_gate)
            {
                if (_queue.Count == 0)
                {
                    _flushing = false;
                    return;
                }

                taken = _queue;
                _queue = _spare ?? [];
                _spare = null;
                first = _nextSequence;
                _nextSequence += taken.Count;
            }

            for (var offset = 0; offset < taken.Count; offset += _node.MaxBatchSize)
            {
                var count = Math.Min(_node.MaxBatchSize, taken.Count - offset);
                await CarryAsync(first + offset, taken.GetRange(offset, count).ToArray()).ConfigureAwait(false);
                CarriedUpTo(first + offset + count);
            }

            taken.Clear();
            if (taken.Capacity > SpareCapacity)
            {
                // A burst's list is not kept: the next spare starts small.
                taken = [];
            }

            lock (_gate)
            {
                _spare = taken;
            }
        }
    }

    /// <summary>
    /// Records that every message numbered below <paramref name="sequenceEnd"/> has been carried (a message's position
    /// is its number plus one): its waiters go on, and the credits of the puts among them are given back.
    /// </summary>
    private void CarriedUpTo(long sequenceEnd)
    {
        List<(long Position, TaskCompletionSource Waiter)>? done = null;
        var credits = 0;
        lock (_gate)
        {
            if (sequenceEnd <= _carried)
            {
                return;
            }

            _carried = sequenceEnd;
            if (_waiters is { Count: > 0 } waiters)
            {
                done = waiters.FindAll(w => w.Position <= _carried);
                waiters.RemoveAll(w => w.Position <= _carried);
            }

            while (_putPositions is { Count: > 0 } puts && puts.Peek() <= _carried)
            {
                puts.Dequeue();
                credits++;
            }
        }

        if (credits > 0)
        {
            _puts!.Release(credits);
        }

        done?.ForEach(w => w.Waiter.TrySetResult());
    }

    /// <summary>
    /// Carries one batch. A call Orleans rejected (the activation was going away) reached no process and is sent again
    /// as it was; one whose outcome is unknown (a timeout, a silo unreachable) is sent again marked as a retry. Then
    /// the receipt's refusals are dead letters, as is the whole batch once the attempts are spent.
    /// </summary>
    private async Task CarryAsync(long firstSequence, object?[] messages)
    {
        var batch = new DeliveryBatch { Link = _id, FirstSequence = firstSequence, Messages = messages };
        for (var attempt = 1; ; attempt++)
        {
            DeliveryReceipt receipt;
            try
            {
                receipt = await _carry(batch).ConfigureAwait(false);
            }
            catch (OrleansMessageRejectionException exception) when (!IsOutcomeUnknown(exception) && attempt < Attempts)
            {
                LogRetry(_node.Logger, _name, attempt, exception);
                await Task.Delay(RetryDelay * attempt).ConfigureAwait(false);
                continue;
            }
            catch (Exception exception) when (IsOutcomeUnknown(exception) && attempt < Attempts)
            {
                LogRetry(_node.Logger, _name, attempt, exception);
                if (attempt == 1 && _node.Oversized(messages) is { Count: > 0 } oversized)
                {
                    // Orleans refuses a message larger than the cluster's limit (the call fails as if the silo were
                    // unavailable): those are dead letters now, and the runs between them are carried again.
                    await CarryAroundAsync(firstSequence, messages, oversized).ConfigureAwait(false);
                    return;
                }

                batch.IsRetry = true;
                batch.RetryOf = _incarnation;
                await Task.Delay(RetryDelay * attempt).ConfigureAwait(false);
                continue;
            }
            catch (Exception exception) when (messages.Length > 1 && !IsOutcomeUnknown(exception) && !batch.IsRetry)
            {
                // Refused before it went (a message Orleans cannot serialize, or one too large): the batch is split, and
                // each half carried with its own numbers, so that only the culprit becomes a dead letter.
                var half = messages.Length / 2;
                await CarryAsync(firstSequence, messages[..half]).ConfigureAwait(false);
                await CarryAsync(firstSequence + half, messages[half..]).ConfigureAwait(false);
                return;
            }
            catch (Exception exception)
            {
                LogUndeliverable(_node.Logger, messages.Length, _name, exception);
                _node.Undeliverable(_target, messages);
                return;
            }

            if (receipt.Status == DeliveryStatus.Retry && attempt < Attempts)
            {
                // The activation is going away with its silo: sent again, unchanged, to wherever the name goes next.
                await Task.Delay(RetryDelay * attempt).ConfigureAwait(false);
                continue;
            }

            Received(receipt, messages);
            if (receipt is { Status: DeliveryStatus.Delivered, Pending: > 0 and var pending } && pending <= messages.Length)
            {
                // A bounded inbox stayed full: what was taken is carried, and the rest is sent again at once, as new
                // (the activation waited already, and counts only what it took).
                var taken = messages.Length - pending;
                _node.CountPendingReceipt();
                CarriedUpTo(firstSequence + taken);
                firstSequence += taken;
                messages = messages[taken..];
                batch = new DeliveryBatch { Link = _id, FirstSequence = firstSequence, Messages = messages };
                attempt = 0;
                continue;
            }

            return;
        }
    }

    /// <summary>
    /// Dead-letters the messages at <paramref name="oversized"/>, and carries the runs between them again, with their
    /// own numbers: a call carrying a message over the cluster's limit reaches no activation (Orleans refuses the whole
    /// message), so the runs are sent as new, not as retries that a receiver could not place.
    /// </summary>
    private async Task CarryAroundAsync(long firstSequence, object?[] messages, List<int> oversized)
    {
        LogOversized(_node.Logger, oversized.Count, _name, _node.MaxMessageBodySize);
        _node.Undeliverable(_target, oversized.Select(i => messages[i]));
        var start = 0;
        foreach (var index in oversized.Append(messages.Length))
        {
            if (index > start)
            {
                await CarryAsync(firstSequence + start, messages[start..index]).ConfigureAwait(false);
            }

            start = index + 1;
        }
    }

    private void Received(DeliveryReceipt receipt, object?[] messages)
    {
        switch (receipt.Status)
        {
            case DeliveryStatus.Delivered:
                // A receipt for exits alone, taken by no process, names none: the link keeps the one it knew.
                if (receipt.Incarnation != Guid.Empty)
                {
                    _incarnation = receipt.Incarnation;
                }

                if (receipt.Refused is { } refused)
                {
                    LogRefused(_node.Logger, refused.Length, _name, receipt.MessageType);
                    var dead = new object?[refused.Length];
                    for (var i = 0; i < refused.Length; i++)
                    {
                        dead[i] = messages[refused[i]];
                    }

                    _node.Undeliverable(_target, dead);
                }

                break;
            case DeliveryStatus.NoSuchProcess:
                LogNoSuchProcess(_node.Logger, messages.Length, _name);
                _node.Undeliverable(_target, messages);
                break;
            default:
                LogLost(_node.Logger, messages.Length, _name);
                _node.Undeliverable(_target, messages);
                break;
        }
    }

    /// <summary>
    /// Whether a failed call may or may not have been delivered: worth a retry, which the receiver deduplicates. A silo
    /// found unavailable is one (Orleans reports it as a rejection, but the connection may have failed after the call
    /// went); a plain rejection is not: it reached no activation.
    /// </summary>
    private static bool IsOutcomeUnknown(Exception exception) =>
        exception is TimeoutException or SiloUnavailableException;

    [LoggerMessage(Level = LogLevel.Error, Message = "{Count} messages to {Name} are dead letters: each is larger, serialized, than the cluster carries ({Limit} bytes, MessagingOptions.MaxMessageBodySize)")]
    private static partial void LogOversized(ILogger logger, int count, string name, int limit);

    [LoggerMessage(Level = LogLevel.Warning, Message = "A batch to {Name} failed on attempt {Attempt}, and is tried again")]
    private static partial void LogRetry(ILogger logger, string name, int attempt, Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "{Count} messages to {Name} could not be carried, and are dead letters")]
    private static partial void LogUndeliverable(ILogger logger, int count, string name, Exception exception);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Count} messages to {Name} are dead letters: it receives {MessageType}, and they are not of that type")]
    private static partial void LogRefused(ILogger logger, int count, string name, string? messageType);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Count} messages to {Name} are dead letters: no process holds the name, and no kind of process is registered for it")]
    private static partial void LogNoSuchProcess(ILogger logger, int count, string name);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Count} messages to {Name} are dead letters: a retry reached a new incarnation of the process, which may not have had the first attempt")]
    private static partial void LogLost(ILogger logger, int count, string name);
}
