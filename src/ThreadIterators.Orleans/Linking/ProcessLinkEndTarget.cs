using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>
/// Where the watch of a <see cref="ProcessLink"/>'s thread sends its <see cref="ThreadExit"/>: to the link itself. It
/// passes the end on and observes no fault, as a local link does not.
/// </summary>
internal sealed class ProcessLinkEndTarget(ProcessLink link) : IMessageTarget<ThreadExit>, IUnobservingTarget
{
    public bool TrySend(ThreadExit message)
    {
        link.ThreadEnded(message);
        return true;
    }

    public void Send(ThreadExit message) => link.ThreadEnded(message);

    public ValueTask SendAsync(ThreadExit message, CancellationToken cancellationToken = default)
    {
        link.ThreadEnded(message);
        return ValueTask.CompletedTask;
    }

    public Event Put(ThreadExit message) =>
        throw new NotSupportedException("A process link's thread watch takes its message with Send; nothing yields a put to it.");

    public override string ToString() => link.ToString();
}
