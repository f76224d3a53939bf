using System;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>The write of a <see cref="ChannelWriteEvent{T}"/>, for <see cref="ChannelWait"/>'s loop.</summary>
/// <typeparam name="T">The type of the channel's items.</typeparam>
internal readonly struct ChannelWriteSide<T> : IChannelSide
{
    /// <summary>The event that writes.</summary>
    private readonly ChannelWriteEvent<T> _owner;

    /// <summary>Initializes a new instance of the <see cref="ChannelWriteSide{T}"/> struct for <paramref name="owner"/>.</summary>
    internal ChannelWriteSide(ChannelWriteEvent<T> owner) => _owner = owner;

    /// <inheritdoc/>
    public bool TryNow() => _owner.TryWrite();

    /// <inheritdoc/>
    public ValueTask<bool> WaitAsync() => _owner.Writer.WaitToWriteAsync();

    /// <inheritdoc/>
    public void BeforePark() => _owner.MarkWaiting();

    /// <inheritdoc/>
    public void AfterWait() => _owner.MarkArmed();

    /// <inheritdoc/>
    public void Closed(Exception? error) => _owner.Refuse(error);
}
