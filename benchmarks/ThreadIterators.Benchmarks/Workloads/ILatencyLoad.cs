using System;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>One implementation of the latency run's threads: the broadcast hub and its clients, the heartbeat and the completers.</summary>
internal interface ILatencyLoad
{
    /// <summary>Starts every thread; they record into the run's <see cref="LatencyProbe"/>.</summary>
    void Start();

    /// <summary>Sends an outside completion, the Stopwatch timestamp <paramref name="sentAt"/>, to completer <paramref name="completer"/>. Called on plain OS threads.</summary>
    void Complete(int completer, long sentAt);

    /// <summary>
    /// After <see cref="LatencyProbe.Stop"/>: ends the completers and the hub (which ends the clients) and waits for
    /// every thread to end; false if some had not after <paramref name="timeout"/>.
    /// </summary>
    bool End(TimeSpan timeout);
}
