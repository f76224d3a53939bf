using System.Threading.Channels;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Outside completions as task completions (see <see cref="ICompletionPort"/>): the OS thread writes into an unbounded
/// single-reader <see cref="Channel{T}"/>, and the completer waits for its next item by yielding the channel reader's
/// <c>ReadAsync</c> through a reusable <see cref="TaskEvent{T}"/>. The write completes the pending read's value task,
/// whose continuation makes the completer ready through the scheduler's inject queue: the path of any I/O or task
/// completion. The async/await side reads the same kind of channel with <c>await</c>.
/// </summary>
internal sealed class TaskCompletionPort : ICompletionPort
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
