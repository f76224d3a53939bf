using System;

namespace ThreadIterators.Orleans;

/// <summary>A pending ask of a process that receives <typeparamref name="TRequest"/> and answers <typeparamref name="TReply"/>.</summary>
internal sealed class PendingAsk<TRequest, TReply> : PendingAsk
{
    private readonly ProcessRef<TRequest> _target;
    private readonly TRequest _request;
    private readonly ReplyTo<TReply> _asker;
    private readonly ProcessNode _node;

    internal PendingAsk(Guid id, ProcessRef<TRequest> target, TRequest request, ReplyTo<TReply> asker, ProcessNode node)
        : base(id, target.Name)
    {
        _target = target;
        _request = request;
        _asker = asker;
        _node = node;
    }

    internal override bool IsWaiting => _asker.IsWaiting;

    // Boxed once, here, so that the object in the link is the one the ask is known by.
    internal override void Prepare() => Request = _request;

    internal override void Send() => Sent = _node.SendBoxed(_target, _request, Request);

    internal override bool Answer(AskAnswer answer)
    {
        if (answer.FailureType is not null)
        {
            return _asker.Fail(new RemoteProcessException(Process, answer.FailureType, $"Process \"{Process}\" failed the ask: {answer.FailureType}: {answer.FailureMessage}"));
        }

        if (answer.Value is TReply value)
        {
            return _asker.Reply(value);
        }

        if (answer.Value is null && default(TReply) is null)
        {
            return _asker.Reply(default!);
        }

        return _asker.Fail(new RemoteProcessException(
            Process,
            remoteType: null,
            $"Process \"{Process}\" answered the ask with a {answer.Value!.GetType()}, where the ask expected a {typeof(TReply)}."));
    }

    internal override bool Fail(Exception exception) => _asker.Fail(exception);
}
