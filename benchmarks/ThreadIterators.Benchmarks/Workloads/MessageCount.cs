using System.Threading;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>The cache-affinity run's shared bookkeeping: messages still in flight, and messages handled.</summary>
/// <param name="tokens">Messages in flight at the start.</param>
internal sealed class MessageCount(int tokens) : System.IDisposable
{
    private readonly ManualResetEventSlim _retired = new(false);

    private int _live = tokens;

    private long _handled;

    /// <summary>Gets the messages handled, as added by <see cref="Add"/>.</summary>
    public long Handled => Interlocked.Read(ref _handled);

    /// <summary>Retires a message that has made its hops; true for the last one.</summary>
    public bool Retire()
    {
        if (Interlocked.Decrement(ref _live) != 0)
        {
            return false;
        }

        _retired.Set();
        return true;
    }

    /// <summary>Adds an actor's count once it has finished.</summary>
    public void Add(long handled) => Interlocked.Add(ref _handled, handled);

    /// <summary>Blocks until every message has retired.</summary>
    public void WaitUntilRetired() => _retired.Wait();

    public void Dispose() => _retired.Dispose();
}
