using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>Where the monitor of an <see cref="AskWatch"/> sends its <see cref="ProcessDown"/>: straight to the ask table.</summary>
internal sealed class AskWatchTarget : IMessageTarget<ProcessDown>
{
    private readonly AskTable _table;

    internal AskWatchTarget(AskTable table) => _table = table;

    public bool TrySend(ProcessDown message)
    {
        _table.ProcessGone(message);
        return true;
    }

    public void Send(ProcessDown message) => _table.ProcessGone(message);

    public ValueTask SendAsync(ProcessDown message, CancellationToken cancellationToken = default)
    {
        _table.ProcessGone(message);
        return ValueTask.CompletedTask;
    }

    public Event Put(ProcessDown message) =>
        throw new NotSupportedException("The ask table's monitor target takes its messages with Send; nothing yields a put to it.");

    /// <inheritdoc/>
    public override string ToString() => "the asks waiting across the cluster";
}
