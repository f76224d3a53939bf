using System;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace ThreadIterators.Tests;

/// <summary>
/// A value task source the test completes by hand, reusable after <see cref="Reset"/>, as the runtime's sockets and
/// channels are: its value tasks may be read once per completion. Counts the reads.
/// </summary>
internal sealed class ManualValueTaskSource<T> : IValueTaskSource<T>, IValueTaskSource
{
    private ManualResetValueTaskSourceCore<T> _core;

    private int _reads;

    /// <summary>Initializes a source; <paramref name="runContinuationsAsynchronously"/> false runs a continuation on the completing thread.</summary>
    public ManualValueTaskSource(bool runContinuationsAsynchronously) => _core.RunContinuationsAsynchronously = runContinuationsAsynchronously;

    /// <summary>Gets how many times an outcome was read (GetResult), over every completion.</summary>
    public int Reads => Volatile.Read(ref _reads);

    /// <summary>Gets the value task of the current completion.</summary>
    public ValueTask<T> Task => new(this, _core.Version);

    /// <summary>Gets the current completion as a value task without a result.</summary>
    public ValueTask PlainTask => new(this, _core.Version);

    public void SetResult(T result) => _core.SetResult(result);

    public void SetException(Exception exception) => _core.SetException(exception);

    /// <summary>Starts a new completion; the value tasks of the previous one become invalid.</summary>
    public void Reset() => _core.Reset();

    public T GetResult(short token)
    {
        Interlocked.Increment(ref _reads);
        return _core.GetResult(token);
    }

    void IValueTaskSource.GetResult(short token)
    {
        Interlocked.Increment(ref _reads);
        _core.GetResult(token);
    }

    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
