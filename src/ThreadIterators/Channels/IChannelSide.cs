using System;
using System.Threading.Tasks;

namespace ThreadIterators;

/// <summary>
/// What <see cref="ChannelWait"/> needs of a channel event to run its wait loop once for both: the read of
/// <see cref="ChannelReadEvent{T}"/> (<see cref="ChannelReadSide{T}"/>) and the write of
/// <see cref="ChannelWriteEvent{T}"/> (<see cref="ChannelWriteSide{T}"/>).
/// </summary>
/// <remarks>
/// Implemented by structs that wrap their event, and used only as a constraint: each gets its own compiled loop, whose
/// calls to these members are direct and inlined, so the shared loop costs no dispatch.
/// </remarks>
internal interface IChannelSide
{
    /// <summary>Reads an item, or writes the armed one, if the channel lets it now; true if done.</summary>
    bool TryNow();

    /// <summary>Asks the channel for a wait until it may let the event do it: <c>WaitToReadAsync</c> or <c>WaitToWriteAsync</c>.</summary>
    ValueTask<bool> WaitAsync();

    /// <summary>Called right before the thread parks on the channel's wait: once parked, it may resume on another worker.</summary>
    void BeforePark();

    /// <summary>Called when the channel's wait has completed, before its outcome is read.</summary>
    void AfterWait();

    /// <summary>Records that the channel is completed: the read gets the end, the write is refused; <paramref name="error"/> is the channel's error, or null.</summary>
    void Closed(Exception? error);
}
