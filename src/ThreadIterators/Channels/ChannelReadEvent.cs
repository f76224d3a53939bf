using System;
using System.Diagnostics;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// The event a green thread yields to read the next item of a <see cref="ChannelReader{T}"/> without blocking its
/// worker: the thread parks while the channel is empty, and resumes on a worker of its own scheduler once it has read
/// an item, or once the channel is completed and drained. Made by
/// <see cref="ChannelEventExtensions.CreateReadEvent{T}(ChannelReader{T})"/>; yielded again for every item.
/// </summary>
/// <remarks>
/// <para>
/// After the thread resumes, either <see cref="IsCompleted"/> is false and <see cref="Value"/> holds the item read,
/// or <see cref="IsCompleted"/> is true: the channel was completed and no item is left, and <see cref="Value"/>
/// throws a <see cref="ChannelClosedException"/> whose inner exception is the error the channel was completed with,
/// if any, as <see cref="ChannelReader{T}.ReadAsync"/> would. The item is read when the thread resumes, by the
/// thread itself (<see cref="ChannelReader{T}.TryRead"/>): until then it stays in the channel for any other reader.
/// </para>
/// <para>
/// An item already there is read without parking and without allocating. Otherwise the event waits on
/// <see cref="ChannelReader{T}.WaitToReadAsync"/> as a <see cref="TaskEvent{T}"/> would, then reads; if another reader
/// took the item first, it waits again. It asks the channel for a new wait only once the previous one has completed,
/// so a single-reader channel never sees two.
/// </para>
/// <para>
/// As a branch of a <see cref="Choice"/> it reads only if chosen: a read that loses takes no item. Its pending
/// <c>WaitToReadAsync</c> stays registered with the channel (a channel cannot take it back), and the next wait of this
/// event, alone or in a choice, waits on it again.
/// </para>
/// <para>
/// Bound to the first green thread that yields it, which alone may yield it and read <see cref="Value"/>, on whichever
/// worker runs it. If the scheduler is disposed while the thread waits, the event cannot be used again.
/// </para>
/// <example>
/// <code>
/// static IEnumerable&lt;Event&gt; Sum(ChannelReader&lt;int&gt; numbers, Mailbox&lt;long&gt; result)
/// {
///     var read = numbers.CreateReadEvent();
///     var sum = 0L;
///     while (true)
///     {
///         yield return read;             // Parks while the channel is empty.
///         if (read.IsCompleted) break;   // Completed and drained.
///         sum += read.Value;
///     }
///
///     result.Send(sum);
/// }
/// </code>
/// </example>
/// </remarks>
/// <typeparam name="T">The type of the channel's items.</typeparam>
[DebuggerDisplay("{ToString(),nq}")]
public sealed class ChannelReadEvent<T> : Event, IChoosable
{
    /// <summary>The channel's reading half.</summary>
    private readonly ChannelReader<T> _reader;

    /// <summary>The bound thread and the channel's outstanding <c>WaitToReadAsync</c>.</summary>
    private ChannelWait _wait;

    /// <summary>The item the last completed read took; default while there is none.</summary>
    private T _value = default!;

    /// <summary>What the last completed read found: <see cref="NothingYet"/>, <see cref="ItemRead"/> or <see cref="ChannelCompleted"/>.</summary>
    private int _outcome;

    /// <summary>The error the channel was completed with, once a read found it completed; null for a plain completion.</summary>
    private Exception? _error;

    /// <summary>In <see cref="_outcome"/>: no read has completed.</summary>
    private const int NothingYet = 0;

    /// <summary>In <see cref="_outcome"/>: the last read took an item.</summary>
    private const int ItemRead = 1;

    /// <summary>In <see cref="_outcome"/>: the last read found the channel completed and drained.</summary>
    private const int ChannelCompleted = 2;

    internal ChannelReadEvent(ChannelReader<T> reader) => _reader = reader;

    /// <summary>
    /// Gets the item the last completed read took.
    /// </summary>
    /// <exception cref="ChannelClosedException">
    /// The last read found the channel completed (<see cref="IsCompleted"/>); its inner exception is the error the
    /// channel was completed with, or null.
    /// </exception>
    /// <exception cref="InvalidOperationException">No read has completed yet.</exception>
    public T Value => _outcome switch
    {
        ItemRead => _value,
        ChannelCompleted => throw new ChannelClosedException(
            _error is null ? $"{this}: the channel was completed, and every item had been read." : $"{this}: the channel was completed with an error: {_error.Message}",
            _error),
        _ => throw new InvalidOperationException($"{this}: Value was read before any read completed; yield the event first, and read Value after the thread resumes."),
    };

    /// <summary>
    /// Gets a value indicating whether the last completed read found the channel completed, with no item left: no
    /// item will come. <see cref="Value"/> then throws, carrying the channel's error if it was completed with one.
    /// </summary>
    public bool IsCompleted => _outcome == ChannelCompleted;

    /// <summary>Gets the channel reader this event reads from.</summary>
    public ChannelReader<T> Reader => _reader;

    /// <inheritdoc/>
    public override string ToString() => $"ChannelReadEvent<{TypeNames.Of<T>()}> ({_outcome switch { ItemRead => "item read", ChannelCompleted => "channel completed", _ => "nothing read yet" }})";

    internal override void DescribeWait(WaitDescription into)
    {
        // In a trace, its name.
        if (!into.ForTrace)
        {
            into.Say($"an item from a channel reader, outside the scheduler ({ToString()})").Outside = true;
        }
    }

    internal override EventOutcome Park(GreenThread thread, Worker worker)
    {
        _wait.Bind(thread, this);
        // Step 1 of ChannelWait's loop here, where it inlines into this method; the wait, if the channel does not
        // let it at once, in ChannelWait.
        return !thread.Scheduler.SeedsOutsideWork && TryRead() ? EventOutcome.Continue : _wait.Wait(new ChannelReadSide<T>(this), thread, worker);
    }

    internal override EventOutcome Resume(GreenThread thread, Worker worker) => _wait.Resume(new ChannelReadSide<T>(this), thread, worker);

    internal override void Abandon(GreenThread thread) => _wait.Abandon(thread);

    internal override bool TryInterrupt(GreenThread thread) => _wait.TryInterrupt(thread);

    internal override void CompleteInterrupt(GreenThread thread) => _wait.CompleteInterrupt(thread);

    EventOutcome IChoosable.TryCompleteNow(GreenThread thread)
    {
        _wait.Bind(thread, this);
        return !thread.Scheduler.SeedsOutsideWork && TryRead() ? EventOutcome.Continue : _wait.Wait(new ChannelReadSide<T>(this), thread, worker: null);
    }

    bool IChoosable.Enlist(GreenThread thread, ChoiceBranch branch, long generation, Worker worker) => _wait.Enlist(new ChannelReadSide<T>(this), thread, branch, generation, worker);

    // A read that loses takes no item.
    void IChoosable.Withdraw(GreenThread thread, ChoiceBranch branch, bool chosen) => _wait.Withdraw(thread, branch, chosen);

    EventOutcome IChoosable.CompleteChosen(GreenThread thread) => _wait.CompleteChosen(new ChannelReadSide<T>(this), thread);

    /// <summary>Reads an item if the channel has one, for the body to read. The bound thread.</summary>
    internal bool TryRead()
    {
        if (!_reader.TryRead(out var item))
        {
            return false;
        }

        _value = item;
        _error = null;
        _outcome = ItemRead;
        return true;
    }

    /// <summary>Records that the read found the channel completed and drained, with <paramref name="error"/>, the error it was completed with, or null.</summary>
    internal void ReadEnd(Exception? error)
    {
        _value = default!;
        _error = error;
        _outcome = ChannelCompleted;
    }
}
