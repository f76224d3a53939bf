using System.Threading;
using System.Threading.Tasks;
using Proto;

namespace ThreadIterators.Benchmarks.Peers.ProtoActor;

/// <summary>
/// What the cache-affinity actors of one run share, as the green actors share a <c>MessageCount</c>: every actor's PID
/// (a message goes to one picked at random), the messages still in flight and handled, and how many actors have yet to
/// finish. Nothing here waits: the last actor to finish reports the total.
/// </summary>
/// <param name="actors">Actors in the run.</param>
/// <param name="tokens">Messages in flight at the start.</param>
/// <param name="done">Completed with the messages handled once every actor has added its count.</param>
internal sealed class AffinityRun(int actors, int tokens, TaskCompletionSource<long> done)
{
    private int _live = tokens;

    private int _unfinished = actors;

    private long _handled;

    /// <summary>Gets every actor's PID, filled in by the run actor before any message is sent.</summary>
    public PID[] Actors { get; } = new PID[actors];

    /// <summary>Retires a message that has made its hops; true for the last one.</summary>
    public bool Retire() => Interlocked.Decrement(ref _live) == 0;

    /// <summary>Adds a finished actor's count; the last to finish reports the total.</summary>
    public void Finish(long handled)
    {
        Interlocked.Add(ref _handled, handled);
        if (Interlocked.Decrement(ref _unfinished) == 0)
        {
            done.TrySetResult(Interlocked.Read(ref _handled));
        }
    }
}
