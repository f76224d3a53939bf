using System.Collections.Concurrent;
using System.Threading;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// An actor of the cache-affinity baseline on the .NET thread pool: a queue of messages and a count of them. Each
/// work item handles one message and, if more are waiting, queues the next work item, so one actor's messages are
/// handled one after another, each wherever the pool runs it.
/// </summary>
/// <remarks>
/// The count, not the queue, decides who queues a work item: the post that takes it from 0 to 1, or the work item
/// that leaves it above 0. (Deciding by "is the queue empty" let a slow poster queue a second work item for a
/// message another work item had already handled.)
/// </remarks>
internal sealed class PoolActor(PoolActor[] actors, long[] state, ulong seed, int accesses, MessageCount run) : IThreadPoolWorkItem
{
    private readonly ConcurrentQueue<long> _inbox = new();

    private ulong _random = seed;

    /// <summary>Messages posted and not yet handled.</summary>
    private int _pending;

    /// <summary>Gets the messages handled. Read once every message has retired.</summary>
    public long Handled { get; private set; }

    /// <summary>Queues a message, and a work item if the actor had none waiting.</summary>
    public void Post(long hops)
    {
        _inbox.Enqueue(hops);
        if (Interlocked.Increment(ref _pending) == 1)
        {
            Schedule();
        }
    }

    public void Execute()
    {
        var hops = Take();
        CacheAffinity.Touch(state, ref _random, accesses);
        Handled++;
        if (hops > 1)
        {
            actors[CacheAffinity.Pick(ref _random, actors.Length)].Post(hops - 1);
        }
        else
        {
            run.Retire();
        }

        if (Interlocked.Decrement(ref _pending) > 0)
        {
            Schedule();
        }
    }

    /// <summary>
    /// Takes the message this work item is for. The count says one is queued, but <c>ConcurrentQueue.TryDequeue</c>
    /// can report empty while another thread is freezing a full segment (dotnet/runtime#132736, fixed after .NET
    /// 10.0.12); measured here about once in 80 runs of 400,000 messages among 240 actors. So it retries, and gives
    /// up loudly after a second rather than hang.
    /// </summary>
    private long Take()
    {
        var spinner = default(SpinWait);
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        while (true)
        {
            if (_inbox.TryDequeue(out var hops))
            {
                return hops;
            }

            if (System.Diagnostics.Stopwatch.GetElapsedTime(started) > System.TimeSpan.FromSeconds(1))
            {
                throw new System.InvalidOperationException("A pool actor's work item found no message in its queue for a second, though its count said one was there.");
            }

            spinner.SpinOnce();
        }
    }

    /// <summary>Queues this actor's next message as a work item on the pool's shared queue (not a worker's local one), as a plain thread pool would.</summary>
    private void Schedule() => ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
}
