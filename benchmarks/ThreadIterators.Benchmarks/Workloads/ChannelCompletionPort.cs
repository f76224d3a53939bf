using System.Threading.Channels;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Outside completions as channel reads (see <see cref="ICompletionPort"/>): the OS thread writes into an unbounded
/// single-reader <see cref="Channel{T}"/>, and the completer waits for its next item by yielding the channel reader's
/// <c>ReadAsync</c> through a reusable <see cref="TaskEvent{T}"/>. The channel runs the pending read's continuation on
/// the thread pool, which then makes the completer ready through the scheduler's inject queue: a hop through the pool
/// that a <see cref="TaskCompletionPort"/> does not take. The async/await completers read the same kind of channel.
/// </summary>
internal sealed class ChannelCompletionPort : ICompletionPort
{
    private readonly Channel<long> _channel = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });

    private readonly TaskEvent<long> _read = new();

    /// <inheritdoc/>
    public long Value => _read.Result;

    /// <inheritdoc/>
    public void Complete(long value) => _channel.Writer.TryWrite(value);

    /// <inheritdoc/>
    public Event Next() => _read.For(_channel.Reader.ReadAsync());
}
