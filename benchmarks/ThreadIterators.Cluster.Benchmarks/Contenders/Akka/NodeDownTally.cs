using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Cluster.Benchmarks.Contenders.Akka;

/// <summary>
/// What the node-down workload's watchers report, from their own actors' threads: when all are watching, when the
/// last has heard that the victim is gone, and whether any heard it twice.
/// </summary>
internal sealed class NodeDownTally(int watchers)
{
    private readonly int[] _heard = new int[watchers];
    private int _watching;
    private int _notYetHeard = watchers;
    private int _repeats;
    private int _addressTerminated;

    /// <summary>Gets a task completed once every watcher watches the victim and has seen that it is there.</summary>
    public TaskCompletionSource AllWatching { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Gets a task given the timestamp (<see cref="System.Diagnostics.Stopwatch"/>) at which the last watcher heard.</summary>
    public TaskCompletionSource<long> AllHeard { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Gets how many watchers heard more than once.</summary>
    public int Repeats => Volatile.Read(ref _repeats);

    /// <summary>Gets how many of the hearings said the victim's whole node was gone (<c>Terminated.AddressTerminated</c>).</summary>
    public int AddressTerminated => Volatile.Read(ref _addressTerminated);

    /// <summary>A watcher watches the victim, and has found it there or not.</summary>
    public void Watching(bool found)
    {
        if (!found)
        {
            AllWatching.TrySetException(new InvalidOperationException("A watcher did not find the victim on the third node."));
        }
        else if (Interlocked.Increment(ref _watching) == _heard.Length)
        {
            AllWatching.TrySetResult();
        }
    }

    /// <summary>Watcher <paramref name="index"/> heard at <paramref name="timestamp"/> that the victim is gone.</summary>
    public void Heard(int index, long timestamp, bool addressTerminated)
    {
        if (addressTerminated)
        {
            Interlocked.Increment(ref _addressTerminated);
        }

        if (Interlocked.Increment(ref _heard[index]) > 1)
        {
            Interlocked.Increment(ref _repeats);
        }
        else if (Interlocked.Decrement(ref _notYetHeard) == 0)
        {
            AllHeard.TrySetResult(timestamp);
        }
    }
}
