namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>Outside completions as sends into the completer's own mailbox (see <see cref="ICompletionPort"/>).</summary>
internal sealed class MailboxCompletionPort : ICompletionPort
{
    private readonly Mailbox<long> _mailbox;

    private readonly ReceiveEvent<long> _receive;

    public MailboxCompletionPort(string name)
    {
        _mailbox = new Mailbox<long>(name);
        _receive = _mailbox.Recv();
    }

    /// <inheritdoc/>
    public long Value => _receive.Value;

    /// <inheritdoc/>
    public void Complete(long value) => _mailbox.Send(value);

    /// <inheritdoc/>
    public Event Next() => _receive;
}
