using System;
using System.Threading;
using Microsoft.Extensions.DependencyInjection;
using Orleans;
using Orleans.Runtime;
using Orleans.Serialization;

namespace ThreadIterators.Orleans;

/// <summary>
/// Where the answer to an ask across silos goes (<see cref="ProcessRef{T}.Ask{TReply}"/>): put it in the request
/// message; the process that takes the request answers through it, once, from any silo.
/// </summary>
/// <typeparam name="T">The type of the answer.</typeparam>
/// <remarks>
/// The answer travels to the asker's silo in order with everything else the answering silo sends it, so an answer sent
/// before the process ended reaches the asker before the word of that end. An answer that comes after the asker
/// stopped waiting (its timeout passed) is a dead letter there, <see cref="DeadLetterReason.LateReply"/>.
/// </remarks>
[GenerateSerializer]
[SerializationCallbacks(typeof(OnDeserializedCallbacks))]
[Immutable]
[Alias("ThreadIterators.Orleans.RemoteReplyTo`1")]
public sealed class RemoteReplyTo<T> : IOnDeserialized
{
    [Id(0)]
    private readonly Guid _ask;

    [Id(1)]
    private readonly INodeObserver _asker;

    [NonSerialized]
    private ProcessNode? _node;

    [NonSerialized]
    private int _answered;

    internal RemoteReplyTo(Guid ask, INodeObserver asker, ProcessNode node)
    {
        _ask = ask;
        _asker = asker;
        _node = node;
    }

    private ProcessNode Node => _node ?? throw new InvalidOperationException(
        $"{this} was not deserialized on a silo with ThreadIterators added (AddThreadIterators): it has no cluster to answer through.");

    /// <summary>Answers the ask with <paramref name="value"/>. Never blocks.</summary>
    /// <param name="value">The answer; its type must be one Orleans serializes.</param>
    /// <returns>True if this is the handle's first answer, now on its way; false if it has answered already.</returns>
    public bool Reply(T value) => Answer(new AskAnswer { Ask = _ask, Value = value });

    /// <summary>
    /// Fails the ask: the asker's wait ends with a <see cref="RemoteProcessException"/> naming
    /// <paramref name="exception"/>'s type and message (an exception does not cross silos whole). Never blocks.
    /// </summary>
    /// <param name="exception">Why.</param>
    /// <returns>True if this is the handle's first answer, now on its way; false if it has answered already.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="exception"/> is null.</exception>
    public bool Fail(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        return Answer(new AskAnswer { Ask = _ask, FailureType = exception.GetType().FullName, FailureMessage = exception.Message });
    }

    /// <inheritdoc/>
    public override string ToString() => $"the answer to ask {_ask:N}";

    void IOnDeserialized.OnDeserialized(DeserializationContext context) => _node = context.ServiceProvider.GetService<ProcessNode>();

    private bool Answer(AskAnswer answer)
    {
        var node = Node;
        if (Interlocked.Exchange(ref _answered, 1) != 0)
        {
            return false;
        }

        node.Notify(_asker, answer);
        return true;
    }
}
