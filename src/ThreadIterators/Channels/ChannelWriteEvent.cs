using System;
using System.Diagnostics;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to write an item into a <see cref="ChannelWriter{T}"/> without blocking its worker:
/// the thread parks while a bounded channel is full, and resumes on a worker of its own scheduler once the item is in,
/// or once the channel is completed and the item could not be written. Made by
/// <see cref="ChannelEventExtensions.CreateWriteEvent{T}(ChannelWriter{T})"/>, armed with the item by
/// <see cref="For"/> before each yield.
/// </summary>
/// <remarks>
/// <para>
/// After the thread resumes, <see cref="IsWritten"/> says whether the item went in. It did not only if the channel
/// was completed first: then <see cref="GetResult"/> throws a <see cref="ChannelClosedException"/> whose inner
/// exception is the error the channel was completed with, if any, as <see cref="ChannelWriter{T}.WriteAsync"/> would.
/// An item is never dropped without the thread being able to tell: check <see cref="IsWritten"/> or call
/// <see cref="GetResult"/>.
/// </para>
/// <para>
/// The item is written by the thread itself (<see cref="ChannelWriter{T}.TryWrite"/>), at the yield if there is room,
/// without parking or allocating; otherwise the event waits on <see cref="ChannelWriter{T}.WaitToWriteAsync"/> as a
/// <see cref="TaskEvent{T}"/> would, then writes, and waits again if another writer took the room. A bounded channel
/// made with <see cref="BoundedChannelFullMode.Wait"/> is the one that makes a writer wait; the other modes, and an
/// unbounded channel, take every item at once.
/// </para>
/// <para>
/// As a branch of a <see cref="Choice"/> it writes only if chosen: a write that loses writes nothing, and the same
/// item (or another, armed with <see cref="For"/>) is offered at the next wait. Its pending <c>WaitToWriteAsync</c>
/// stays registered with the channel and is waited on again by the next wait of this event.
/// </para>
/// <para>
/// Bound to the first green thread that yields it, which alone arms it, yields it and reads its outcome. If the
/// scheduler is disposed while the thread waits, the item is not written and the event cannot be used again.
/// </para>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Produce(ChannelWriter&lt;int&gt; numbers, int count)
/// {
///     var write = numbers.CreateWriteEvent();
///     for (var i = 0; i &lt; count; i++)
///     {
///         yield return write.For(i);     // Parks while the channel is full.
///         if (!write.IsWritten) yield break;   // The consumer completed the channel.
///     }
///
///     numbers.Complete();
/// }
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="T">The type of the channel's items.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class ChannelWriteEvent<T> : Event, IChoosable
{
    /// <summary>In <see cref="_outcome"/>: not armed since the last outcome, or never armed.</summary>
    private const int Unarmed = 0;

    /// <summary>In <see cref="_outcome"/>: armed with <see cref="_item"/>, which the next yield writes.</summary>
    private const int Armed = 1;

    /// <summary>In <see cref="_outcome"/>: the thread is parked until it can write the armed item.</summary>
    private const int Waiting = 2;

    /// <summary>In <see cref="_outcome"/>: the last armed item was written.</summary>
    private const int Written = 3;

    /// <summary>In <see cref="_outcome"/>: the channel was completed before the last armed item could be written.</summary>
    private const int Refused = 4;

    /// <summary>The channel's writing half.</summary>
    private readonly ChannelWriter<T> _writer;

    /// <summary>The bound thread and the channel's outstanding <c>WaitToWriteAsync</c>.</summary>
    private ChannelWait _wait;

    /// <summary>The armed item; default once written or refused, so the event does not keep it alive.</summary>
    private T _item = default!;

    /// <summary>One of the constants above.</summary>
    private int _outcome;

    /// <summary>The error the channel was completed with, once a write was refused; null for a plain completion.</summary>
    private Exception? _error;

    internal ChannelWriteEvent(ChannelWriter<T> writer) => _writer = writer;

    /// <summary>Gets a value indicating whether the last armed item was written into the channel.</summary>
    public bool IsWritten => _outcome == Written;

    /// <summary>Gets the channel writer this event writes into.</summary>
    public ChannelWriter<T> Writer => _writer;

    /// <summary>Arms the event with <paramref name="item"/>: the next yield writes it.</summary>
    /// <param name="item">The item to write.</param>
    /// <returns>This event, to yield.</returns>
    /// <exception cref="InvalidOperationException">A green thread is parked on this event, waiting to write the item armed before.</exception>
    public ChannelWriteEvent<T> For(T item)
    {
        if (_outcome == Waiting)
        {
            throw new InvalidOperationException($"{this} was armed again while a green thread is parked on it, waiting to write; arm it after that thread has resumed.");
        }

        _item = item;
        _error = null;
        _outcome = Armed;
        return this;
    }

    /// <summary>
    /// Ends the write the way <see cref="ChannelWriter{T}.WriteAsync"/> does: returns if the item was written, and
    /// otherwise throws.
    /// </summary>
    /// <exception cref="ChannelClosedException">
    /// The channel was completed before the item could be written; its inner exception is the error the channel was
    /// completed with, or null.
    /// </exception>
    /// <exception cref="InvalidOperationException">No write has completed since the event was last armed.</exception>
    public void GetResult()
    {
        switch (_outcome)
        {
            case Written:
                return;
            case Refused:
                throw new ChannelClosedException(
                    _error is null ? $"{this}: the channel was completed before the item could be written." : $"{this}: the channel was completed with an error before the item could be written: {_error.Message}",
                    _error);
            default:
                throw new InvalidOperationException($"{this}: GetResult() was called before the write completed; arm the event with For(item), yield it, and read the outcome after the thread resumes.");
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"ChannelWriteEvent<{TypeNames.Of<T>()}> ({_outcome switch { Armed => "armed", Waiting => "waiting for room", Written => "written", Refused => "channel completed, not written", _ => "unarmed" }})";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"room in a channel writer, outside the scheduler ({ToString()})").Outside = true;
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        _wait.Bind(thread, this);
        CheckArmed(thread);
        // Step 1 of ChannelWait's loop here, where it inlines into this method; the wait, if the channel does not
        // let it at once, in ChannelWait.
        return !thread.Scheduler.SeedsOutsideWork && TryWrite() ? EventOutcome.Continue : _wait.Wait(new ChannelWriteSide<T>(this), thread, worker);
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => _wait.Resume(new ChannelWriteSide<T>(this), thread, worker);

    internal override void Abandon(GreenThread thread)
    {
        // Disposed while waiting: nothing was written, and the thread will never read the outcome.
        _wait.Abandon(thread);
        _item = default!;
        _outcome = Unarmed;
    }

    internal override bool TryInterrupt(GreenThread thread) => _wait.TryInterrupt(thread);

    internal override void CompleteInterrupt(GreenThread thread)
    {
        // Stopped while waiting for room: nothing was written, and the thread ends without reading the outcome.
        _wait.CompleteInterrupt(thread);
        _item = default!;
        _outcome = Unarmed;
    }

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread)
    {
        _wait.Bind(thread, this);
        CheckArmed(thread);
        return !thread.Scheduler.SeedsOutsideWork && TryWrite() ? EventOutcome.Continue : _wait.Wait(new ChannelWriteSide<T>(this), thread, worker: null);
    }

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => _wait.Enlist(new ChannelWriteSide<T>(this), thread, branch, generation, worker);

    // A write that loses writes nothing; the same item is offered at the next wait.
    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => _wait.Withdraw(thread, branch, chosen);

    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => _wait.CompleteChosen(new ChannelWriteSide<T>(this), thread);

    /// <summary>Writes the armed item if the channel has room. The bound thread.</summary>
    internal bool TryWrite()
    {
        if (!_writer.TryWrite(_item))
        {
            return false;
        }

        _item = default!;
        _outcome = Written;
        return true;
    }

    /// <summary>Marks the thread parked until it can write the armed item: <see cref="For"/> refuses to arm the event meanwhile.</summary>
    internal void MarkWaiting() => _outcome = Waiting;

    /// <summary>Marks the armed item not written yet once the channel's wait has completed.</summary>
    internal void MarkArmed() => _outcome = Armed;

    /// <summary>Records that the channel was completed before the armed item could be written, with <paramref name="error"/>, the error it was completed with, or null.</summary>
    internal void Refuse(Exception? error)
    {
        _item = default!;
        _error = error;
        _outcome = Refused;
    }

    private void CheckArmed(GreenThread thread)
    {
        if (_outcome != Armed)
        {
            throw new InvalidOperationException($"{thread} yielded {this} without arming it; call For(item) before each yield.");
        }
    }
}
