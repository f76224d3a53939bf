using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace ThreadIterators.Benchmarks.Workloads;

/// <summary>
/// Latency under load: how late threads woken from outside the workers run while other threads keep every worker
/// busy. The load is a broadcast hub with C clients (each client sends the hub a message, the hub forwards each
/// message to F clients in rotation, a client does some work for each message it receives (<see cref="LatencyWork"/>)
/// and sends again once it has received F), counted as messages delivered per second. Beside it run a heartbeat that sleeps for a fixed period and records how late each wake-up
/// is, and completers that plain OS threads send Stopwatch timestamps to about once a millisecond each, recording
/// how long after the timestamp they ran. Both implementations (<see cref="GreenLatencyLoad"/>,
/// <see cref="TaskLatencyLoad"/>) run this same shape.
/// </summary>
/// <remarks>
/// Every hub message becomes F deliveries and every F deliveries one hub message, so at most C times F messages are
/// ever in flight, whatever the scheduling. The run warms up, measures a window, then keeps the load running until
/// every completion sent in the window has run and the heartbeat's last sleep begun in it has ended, so late samples
/// are measured under load and none is lost.
/// </remarks>
internal static class LatencyRun
{
    /// <summary>How long a run waits after its window for the samples still on their way, and then for its threads to end.</summary>
    public static readonly TimeSpan DrainTimeout = TimeSpan.FromSeconds(60);

    /// <summary>How often the main thread looks at the clock and the thread pool while it waits.</summary>
    private const int PollMilliseconds = 20;

    public static long ToStopwatchTicks(TimeSpan duration) => (long)Math.Round(duration.TotalSeconds * Stopwatch.Frequency);

    public static double ToMilliseconds(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;

    /// <summary>Runs <paramref name="load"/>, which records into <paramref name="probe"/>, for one warm-up and one window.</summary>
    public static LatencyRunResult Measure(ILatencyLoad load, LatencyProbe probe, LatencyOptions options)
    {
        load.Start();
        var senders = new CompletionSenders(load, options.Senders, options.Completers);
        Thread.Sleep(options.WarmUp);

        using var process = Process.GetCurrentProcess();
        var cpuFrom = process.TotalProcessorTime;
        var from = Stopwatch.GetTimestamp();
        var deliveredFrom = probe.DeliveredTotal();
        var poolThreads = ThreadPool.ThreadCount;
        var until = from + ToStopwatchTicks(options.Window);
        long now;
        while ((now = Stopwatch.GetTimestamp()) < until)
        {
            Thread.Sleep((int)Math.Clamp(Math.Ceiling(ToMilliseconds(until - now)), 1, PollMilliseconds));
            poolThreads = Math.Max(poolThreads, ThreadPool.ThreadCount);
        }

        var to = Stopwatch.GetTimestamp();
        var delivered = probe.DeliveredTotal() - deliveredFrom;
        process.Refresh();
        var cpu = process.TotalProcessorTime - cpuFrom;
        var sent = senders.Stop();

        var drainUntil = Stopwatch.GetTimestamp() + ToStopwatchTicks(DrainTimeout);
        while ((probe.CompletionsReceived() < sent || probe.Heartbeat.LastStart < to) && Stopwatch.GetTimestamp() < drainUntil)
        {
            Thread.Sleep(5);
        }

        probe.Stop();
        if (!load.End(DrainTimeout))
        {
            throw new TimeoutException($"the latency run's threads had not ended {DrainTimeout.TotalSeconds:F0} s after it stopped them.");
        }

        var heartbeat = new List<long>();
        probe.Heartbeat.Between(from, to, heartbeat);
        var completions = new List<long>();
        foreach (var samples in probe.Completions)
        {
            samples.Between(from, to, completions);
        }

        return new LatencyRunResult(
            [.. heartbeat],
            [.. completions],
            delivered,
            Stopwatch.GetElapsedTime(from, to).TotalSeconds,
            sent,
            probe.CompletionsReceived(),
            cpu.TotalSeconds,
            poolThreads);
    }
}
