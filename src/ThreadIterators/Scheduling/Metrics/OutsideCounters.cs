using System;
using System.Threading;

namespace ThreadIterators;

/// <summary>
/// Counts made on one OS thread that is no scheduler's worker: sends from <c>Main</c> or async code, the wake-ups
/// they give, and the waits of async readers. No scheduler did that work, so the meter reports their sum under the
/// scheduler tag <see cref="RuntimeMetrics.OutsideTag"/>.
/// </summary>
/// <remarks>
/// Written by its own OS thread only, with plain adds, as a worker's counts are: one instance per OS thread
/// (<see cref="OsThreadContext"/>), so a send from outside pays no interlocked operation and no call for the meter.
/// Every instance is kept, so the sum never goes down: one small object per OS thread that ever sent or received
/// outside the workers (the thread pool's are reused).
/// </remarks>
internal sealed class OutsideCounters
{
    private static readonly object s_gate = new();

    /// <summary>Every instance made; replaced whole under <see cref="s_gate"/>, read without it.</summary>
    private static OutsideCounters[] s_all = [];

    public long Sent;

    public long WakeUps;

    public long MailboxWaits;

    private OutsideCounters()
    {
    }

    /// <summary>Makes the counts of a new OS thread, and keeps them for the meter.</summary>
    internal static OutsideCounters Register()
    {
        var counters = new OutsideCounters();
        lock (s_gate)
        {
            s_all = [.. s_all, counters];
        }

        return counters;
    }

    /// <summary>Sums one count over every OS thread; counts made meanwhile may or may not be in it.</summary>
    internal static long Sum(Func<OutsideCounters, long> read)
    {
        long sum = 0;
        foreach (var counters in Volatile.Read(ref s_all))
        {
            sum += read(counters);
        }

        return sum;
    }
}
