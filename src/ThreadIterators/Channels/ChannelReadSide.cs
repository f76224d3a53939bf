using System;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>The read of a <see cref="ChannelReadEvent{T}"/>, for <see cref="ChannelWait"/>'s loop.</summary>
/// <typeparam name="T">The type of the channel's items.</typeparam>
internal readonly struct ChannelReadSide<T> : IChannelSide
{
    /// <summary>The event that reads.</summary>
    private readonly ChannelReadEvent<T> _owner;

    /// <summary>Initializes a new instance of the <see cref="ChannelReadSide{T}"/> struct for <paramref name="owner"/>.</summary>
    internal ChannelReadSide(ChannelReadEvent<T> owner) => _owner = owner;

    /// <inheritdoc/>
    public bool TryNow() => _owner.TryRead();

    /// <inheritdoc/>
    public ValueTask<bool> WaitAsync() => _owner.Reader.WaitToReadAsync();

    /// <inheritdoc/>
    public void BeforePark()
    {
        // A read keeps no state while it waits, so it has nothing to mark here or after the wait.
    }

    /// <inheritdoc/>
    public void AfterWait()
    {
        // As BeforePark: nothing to mark.
    }

    /// <inheritdoc/>
    public void Closed(Exception? error) => _owner.ReadEnd(error);
}
