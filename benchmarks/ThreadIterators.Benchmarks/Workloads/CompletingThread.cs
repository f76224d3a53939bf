using System;
using System.Threading;
using System.Threading.Tasks;
using ThreadIterators;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// One helper OS thread that completes the task a waiter hands it, with 1, or sends 1 to the mailbox it hands it: one
/// request at a time, made only once the previous one was answered. It blocks (after the brief spin of
/// <see cref="ManualResetEventSlim"/>) while it has nothing to do. Every side of the pending-wait comparison uses it
/// the same way.
/// </summary>
internal sealed class CompletingThread : IDisposable
{
    private readonly ManualResetEventSlim _signal = new(false);

    private readonly Thread _thread;

    /// <summary>The task to complete or the mailbox to send to next, or null.</summary>
    private object? _next;

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

    /// <summary>Asks the helper thread to send 1 to <paramref name="mailbox"/>.</summary>
    public void Send(Mailbox<int> mailbox)
    {
        Volatile.Write(ref _next, mailbox);
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

            switch (Interlocked.Exchange(ref _next, null))
            {
                case TaskCompletionSource<int> completion:
                    completion.SetResult(1);
                    break;
                case Mailbox<int> mailbox:
                    mailbox.Send(1);
                    break;
            }
        }
    }
}
