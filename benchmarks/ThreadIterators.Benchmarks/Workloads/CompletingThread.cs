using System;
using System.Threading;
using System.Threading.Tasks;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// One helper OS thread that completes the task a waiter hands it, with 1: one request at a time, made only once the
/// previous task has completed. It blocks (after the brief spin of <see cref="ManualResetEventSlim"/>) while it has
/// nothing to complete. Both sides of the pending-wait comparison use it the same way.
/// </summary>
internal sealed class CompletingThread : IDisposable
{
    private readonly ManualResetEventSlim _signal = new(false);

    private readonly Thread _thread;

    /// <summary>The task to complete next, or null.</summary>
    private TaskCompletionSource<int>? _next;

    private volatile bool _stopping;

    public CompletingThread()
    {
        _thread = new Thread(Run)
        {
            IsBackground = true,
            Name = "task completer",
        };
        _thread.Start();
    }

    /// <summary>Asks the helper thread to complete <paramref name="completion"/> with 1.</summary>
    public void Complete(TaskCompletionSource<int> completion)
    {
        Volatile.Write(ref _next, completion);
        _signal.Set();
    }

    public void Dispose()
    {
        _stopping = true;
        _signal.Set();
        _thread.Join();
        _signal.Dispose();
    }

    private void Run()
    {
        while (true)
        {
            _signal.Wait();

            // The next request comes only after this one's task completed, below, so this reset loses no request.
            _signal.Reset();
            if (_stopping)
            {
                return;
            }

            Interlocked.Exchange(ref _next, null)?.SetResult(1);
        }
    }
}
