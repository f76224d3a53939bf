using System;
using System.Threading.Channels;

namespace ThreadIterators;

/// <summary>
/// Makes the events a green thread yields to read from a <see cref="ChannelReader{T}"/> and to write into a
/// <see cref="ChannelWriter{T}"/> without blocking its worker; both may be branches of a <see cref="Choice"/>.
/// Make one event per reading or writing thread, once, and yield it for every item.
/// </summary>
/// <example>
/// <code>
/// var channel = Channel.CreateBounded&lt;int&gt;(16);
/// scheduler.Spawn(Produce(channel.Writer));
/// await foreach (var n in channel.Reader.ReadAllAsync()) Console.WriteLine(n);   // Async code drains it.
///
/// static IEnumerable&lt;Event&gt; Produce(ChannelWriter&lt;int&gt; writer)
/// {
///     var write = writer.CreateWriteEvent();
///     for (var i = 0; i &lt; 100; i++)
///     {
///         yield return write.For(i);    // Parks while the channel is full.
///         write.GetResult();           // Throws ChannelClosedException if the channel was completed.
///     }
///
///     writer.Complete();
/// }
/// </code>
/// </example>
public static class ChannelEventExtensions
{
    /// <summary>
    /// Makes a reusable event that reads the next item of <paramref name="reader"/>: yield it, then read
    /// <see cref="ChannelReadEvent{T}.IsCompleted"/> and <see cref="ChannelReadEvent{T}.Value"/>.
    /// </summary>
    /// <typeparam name="T">The type of the channel's items.</typeparam>
    /// <param name="reader">The channel to read from.</param>
    /// <returns>A new event, bound to the first green thread that yields it.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="reader"/> is null.</exception>
    public static ChannelReadEvent<T> CreateReadEvent<T>(this ChannelReader<T> reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        return new ChannelReadEvent<T>(reader);
    }

    /// <summary>
    /// Makes a reusable event that writes an item into <paramref name="writer"/>: arm it with
    /// <see cref="ChannelWriteEvent{T}.For"/>, yield it, then read <see cref="ChannelWriteEvent{T}.IsWritten"/> or call
    /// <see cref="ChannelWriteEvent{T}.GetResult"/>.
    /// </summary>
    /// <typeparam name="T">The type of the channel's items.</typeparam>
    /// <param name="writer">The channel to write into.</param>
    /// <returns>A new event, unarmed, bound to the first green thread that yields it.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="writer"/> is null.</exception>
    public static ChannelWriteEvent<T> CreateWriteEvent<T>(this ChannelWriter<T> writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        return new ChannelWriteEvent<T>(writer);
    }
}
