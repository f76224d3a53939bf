using System.Threading;

namespace WebApi.Baselines;

/// <summary>The counter behind a lock: what the actor's endpoint is compared with.</summary>
internal sealed class LockCounter
{
    private readonly Lock _gate = new();

    private long _count;

    /// <summary>Adds <paramref name="amount"/> and returns the new count.</summary>
    public long Add(long amount)
    {
        lock (_gate)
        {
            _count += amount;
            return _count;
        }
    }
}
