using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Orleans;

/// <summary>
/// A message target that hands each message to a callback, on the sending thread: where the package's own parts take
/// a monitor's <see cref="ProcessDown"/> (the ask table, a link) or a watched thread's <see cref="ThreadExit"/> (a
/// link). As a thread watch's target it observes no fault (<see cref="IUnobservingTarget"/>): it passes the end on, as a
/// local link does, and the fault still reaches whoever joins the thread.
/// </summary>
/// <typeparam name="T">The type of message.</typeparam>
internal sealed class CallbackTarget<T>(Action<T> take, Func<string> describe) : IMessageTarget<T>, IUnobservingTarget
{
    public bool TrySend(T message)
    {
        take(message);
        return true;
    }

    public void Send(T message) => take(message);

    public ValueTask SendAsync(T message, CancellationToken cancellationToken = default)
    {
        take(message);
        return ValueTask.CompletedTask;
    }

    public Event Put(T message) =>
        throw new NotSupportedException($"{describe()} takes its messages with Send; nothing yields a put to it.");

    public override string ToString() => describe();
}
