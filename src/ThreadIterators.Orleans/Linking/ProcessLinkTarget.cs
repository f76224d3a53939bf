using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>Where the monitor of a <see cref="ProcessLink"/> sends its <see cref="ProcessDown"/>: to the link itself.</summary>
internal sealed class ProcessLinkTarget(ProcessLink link) : IMessageTarget<ProcessDown>
{
    public bool TrySend(ProcessDown message)
    {
        link.ProcessGone(message);
        return true;
    }

    public void Send(ProcessDown message) => link.ProcessGone(message);

    public ValueTask SendAsync(ProcessDown message, CancellationToken cancellationToken = default)
    {
        link.ProcessGone(message);
        return ValueTask.CompletedTask;
    }

    public Event Put(ProcessDown message) =>
        throw new NotSupportedException("A process link's monitor target takes its messages with Send; nothing yields a put to it.");

    public override string ToString() => link.ToString();
}
