using System;
using System.Collections.Concurrent;
using System.Threading;
using ThreadIterators;

namespace ThreadIterators.Tests;

/// <summary>A timer entry for the queue's tests: counts its fires, and logs them in order if given a log.</summary>
/// <remarks>Fired on the queue's firing thread; read by the test thread.</remarks>
internal sealed class RecordingEntry : TimerEntry
{
    /// <summary>Where fires are logged, in fire order, if anywhere.</summary>
    private readonly ConcurrentQueue<RecordingEntry>? _log;

    /// <summary>Run inside each fire, before it is counted, if set.</summary>
    private readonly Action? _onFire;

    /// <summary>How many times <see cref="Fire"/> ran.</summary>
    private int _fired;

    internal RecordingEntry(int id, ConcurrentQueue<RecordingEntry>? log = null, Action? onFire = null)
    {
        Id = id;
        _log = log;
        _onFire = onFire;
    }

    /// <summary>Gets the entry's number in its test.</summary>
    internal int Id { get; }

    /// <summary>Gets how many times the entry fired.</summary>
    internal int Fired => Volatile.Read(ref _fired);

    /// <summary>Gets the managed id of the thread of the last fire.</summary>
    internal int FiredOnThread { get; private set; }

    internal override void Fire()
    {
        FiredOnThread = Environment.CurrentManagedThreadId;
        _onFire?.Invoke();
        _log?.Enqueue(this);
        Interlocked.Increment(ref _fired);
    }

    public override string ToString() => $"entry {Id}";
}
