using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Proto;

/// <summary>
/// The stream's receiver: checks that each <see cref="StreamItem"/> carries exactly the next number since the last
/// <see cref="StreamStart"/>, and answers an item that asks for it with a <see cref="StreamAck"/> of how many came in
/// order and whether one did not, so that the sender can tell a lost, repeated or reordered message.
/// </summary>
internal sealed class SinkActor : IActor
{
    private long _inOrder;
    private bool _failed;

    /// <inheritdoc />
    public Task ReceiveAsync(IContext context)
    {
        switch (context.Message)
        {
            case StreamStart:
                _inOrder = 0;
                _failed = false;
                context.Respond(new StreamStarted());
                break;
            case StreamItem item:
                if (!_failed && item.Seq == _inOrder)
                {
                    _inOrder++;
                }
                else
                {
                    _failed = true;
                }

                if (item.Ack)
                {
                    context.Respond(new StreamAck { InOrder = _inOrder, Failed = _failed });
                }

                break;
        }

        return Task.CompletedTask;
    }
}
