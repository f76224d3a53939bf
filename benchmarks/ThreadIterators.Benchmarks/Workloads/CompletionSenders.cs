using System;
using System.Diagnostics;
using System.Globalization;
using System.Threading;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// The plain OS threads of a latency run that complete from outside: each, about once a millisecond
/// (<see cref="Thread.Sleep(int)"/> of 1), takes a Stopwatch timestamp and sends it to the next completer in rotation.
/// </summary>
internal sealed class CompletionSenders
{
    private readonly Thread[] _threads;

    private readonly long[] _sent;

    private volatile bool _stopping;

    /// <summary>Starts <paramref name="senders"/> threads completing into <paramref name="load"/>'s <paramref name="completers"/> completers.</summary>
    public CompletionSenders(ILatencyLoad load, int senders, int completers)
    {
        _threads = new Thread[senders];
        _sent = new long[senders];
        for (var s = 0; s < senders; s++)
        {
            var index = s;
            _threads[s] = new Thread(() => Send(load, index, completers))
            {
                IsBackground = true,
                Name = string.Create(CultureInfo.InvariantCulture, $"latency sender {s}"),
            };
            _threads[s].Start();
        }
    }

    /// <summary>Stops the threads, waits for them, and returns how many completions they sent in all.</summary>
    public long Stop()
    {
        _stopping = true;
        long sent = 0;
        for (var s = 0; s < _threads.Length; s++)
        {
            _threads[s].Join();
            sent += _sent[s];
        }

        return sent;
    }

    private void Send(ILatencyLoad load, int index, int completers)
    {
        var next = index % completers;
        while (!_stopping)
        {
            Thread.Sleep(1);
            load.Complete(next, Stopwatch.GetTimestamp());
            _sent[index]++;
            next = next + 1 == completers ? 0 : next + 1;
        }
    }
}
