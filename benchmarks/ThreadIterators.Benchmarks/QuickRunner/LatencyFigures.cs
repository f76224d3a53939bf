using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.Json;
using ThreadIterators.Benchmarks.Workloads;

namespace ThreadIterators.Benchmarks.QuickRunner;

/// <summary>What the <c>latency</c> command reports for one run, or the median of several.</summary>
/// <param name="HeartbeatP50Ms">Median lateness of the heartbeat's wake-ups: actual sleep minus the period.</param>
/// <param name="HeartbeatP99Ms">99th percentile of that lateness (nearest rank).</param>
/// <param name="HeartbeatMaxMs">The latest wake-up.</param>
/// <param name="HeartbeatSamples">Wake-ups whose sleep began in the window.</param>
/// <param name="CompletionP50Ms">Median time from an OS thread's timestamp to its completer running.</param>
/// <param name="CompletionP99Ms">99th percentile of that time (nearest rank).</param>
/// <param name="CompletionMaxMs">The slowest completion.</param>
/// <param name="CompletionSamples">Completions sent in the window.</param>
/// <param name="CompletionsSent">Completions sent in the whole run, warm-up included (in a median, the total over the runs).</param>
/// <param name="CompletionsReceived">Completions received in the whole run, equal to those sent in a correct run (in a median, the total).</param>
/// <param name="Messages">Messages the clients received from the hub in the window.</param>
/// <param name="WindowSeconds">The window's length.</param>
/// <param name="CpuCoresBusy">Processor time the process used in the window over the window's length: about the worker count when the load saturates them (the timer and sender threads add a little).</param>
/// <param name="PeakWorkingSetBytes">The process's peak working set so far (the maximum over runs in a median).</param>
/// <param name="PoolThreadsMax">The most thread-pool threads seen in the window.</param>
internal sealed record LatencyFigures(
    double HeartbeatP50Ms,
    double HeartbeatP99Ms,
    double HeartbeatMaxMs,
    long HeartbeatSamples,
    double CompletionP50Ms,
    double CompletionP99Ms,
    double CompletionMaxMs,
    long CompletionSamples,
    long CompletionsSent,
    long CompletionsReceived,
    long Messages,
    double WindowSeconds,
    double CpuCoresBusy,
    long PeakWorkingSetBytes,
    int PoolThreadsMax)
{
    /// <summary>Gets the local messages delivered per second of the window.</summary>
    public double MessagesPerSecond => Messages / WindowSeconds;

    /// <summary>Gets a value indicating whether the run is consistent: every completion sent was received, and every kind of sample was taken.</summary>
    public bool Ok => CompletionsReceived == CompletionsSent && HeartbeatSamples > 0 && CompletionSamples > 0 && Messages > 0;

    /// <summary>The figures of one run.</summary>
    public static LatencyFigures From(LatencyRunResult run, long peakWorkingSetBytes)
    {
        var heartbeat = run.HeartbeatLateness.Order().ToArray();
        var completions = run.CompletionLatency.Order().ToArray();
        return new LatencyFigures(
            Percentile(heartbeat, 0.50),
            Percentile(heartbeat, 0.99),
            Percentile(heartbeat, 1),
            heartbeat.Length,
            Percentile(completions, 0.50),
            Percentile(completions, 0.99),
            Percentile(completions, 1),
            completions.Length,
            run.CompletionsSent,
            run.CompletionsReceived,
            run.Delivered,
            run.WindowSeconds,
            run.CpuSeconds / run.WindowSeconds,
            peakWorkingSetBytes,
            run.PoolThreadsMax);
    }

    /// <summary>The median of each figure over <paramref name="runs"/>; completions sent and received are totals, the peak working set and pool threads maxima.</summary>
    public static LatencyFigures Median(IReadOnlyList<LatencyFigures> runs) => new(
        Measurement.MedianOf(runs.Select(r => r.HeartbeatP50Ms)),
        Measurement.MedianOf(runs.Select(r => r.HeartbeatP99Ms)),
        Measurement.MedianOf(runs.Select(r => r.HeartbeatMaxMs)),
        (long)Measurement.MedianOf(runs.Select(r => (double)r.HeartbeatSamples)),
        Measurement.MedianOf(runs.Select(r => r.CompletionP50Ms)),
        Measurement.MedianOf(runs.Select(r => r.CompletionP99Ms)),
        Measurement.MedianOf(runs.Select(r => r.CompletionMaxMs)),
        (long)Measurement.MedianOf(runs.Select(r => (double)r.CompletionSamples)),
        runs.Sum(r => r.CompletionsSent),
        runs.Sum(r => r.CompletionsReceived),
        (long)Measurement.MedianOf(runs.Select(r => (double)r.Messages)),
        Measurement.MedianOf(runs.Select(r => r.WindowSeconds)),
        Measurement.MedianOf(runs.Select(r => r.CpuCoresBusy)),
        runs.Max(r => r.PeakWorkingSetBytes),
        runs.Max(r => r.PoolThreadsMax));

    /// <summary>The nearest-rank percentile of sorted Stopwatch ticks, in milliseconds; NaN for no samples.</summary>
    internal static double Percentile(long[] sorted, double fraction)
    {
        if (sorted.Length == 0)
        {
            return double.NaN;
        }

        var rank = (int)Math.Ceiling(fraction * sorted.Length);
        return LatencyRun.ToMilliseconds(sorted[Math.Clamp(rank, 1, sorted.Length) - 1]);
    }

    /// <summary>Writes the figures as fields of a JSON object.</summary>
    public void Write(Utf8JsonWriter json)
    {
        json.WriteNumber("heartbeat_late_p50_ms", Round(HeartbeatP50Ms));
        json.WriteNumber("heartbeat_late_p99_ms", Round(HeartbeatP99Ms));
        json.WriteNumber("heartbeat_late_max_ms", Round(HeartbeatMaxMs));
        json.WriteNumber("heartbeat_samples", HeartbeatSamples);
        json.WriteNumber("completion_p50_ms", Round(CompletionP50Ms));
        json.WriteNumber("completion_p99_ms", Round(CompletionP99Ms));
        json.WriteNumber("completion_max_ms", Round(CompletionMaxMs));
        json.WriteNumber("completion_samples", CompletionSamples);
        json.WriteNumber("completions_sent", CompletionsSent);
        json.WriteNumber("completions_received", CompletionsReceived);
        json.WriteNumber("messages", Messages);
        json.WriteNumber("window_seconds", Math.Round(WindowSeconds, 3));
        json.WriteNumber("messages_per_second", Math.Round(MessagesPerSecond));
        json.WriteNumber("cpu_cores_busy", Math.Round(CpuCoresBusy, 2));
        json.WriteNumber("peak_working_set_bytes", PeakWorkingSetBytes);
        json.WriteNumber("pool_threads_max", PoolThreadsMax);
    }

    /// <summary>Reads the figures <see cref="Write"/> wrote.</summary>
    public static LatencyFigures Read(JsonElement json) => new(
        json.GetProperty("heartbeat_late_p50_ms").GetDouble(),
        json.GetProperty("heartbeat_late_p99_ms").GetDouble(),
        json.GetProperty("heartbeat_late_max_ms").GetDouble(),
        json.GetProperty("heartbeat_samples").GetInt64(),
        json.GetProperty("completion_p50_ms").GetDouble(),
        json.GetProperty("completion_p99_ms").GetDouble(),
        json.GetProperty("completion_max_ms").GetDouble(),
        json.GetProperty("completion_samples").GetInt64(),
        json.GetProperty("completions_sent").GetInt64(),
        json.GetProperty("completions_received").GetInt64(),
        json.GetProperty("messages").GetInt64(),
        json.GetProperty("window_seconds").GetDouble(),
        json.GetProperty("cpu_cores_busy").GetDouble(),
        json.GetProperty("peak_working_set_bytes").GetInt64(),
        json.GetProperty("pool_threads_max").GetInt32());

    /// <summary>Milliseconds to the microsecond; NaN (no samples) as -1, which JSON can carry.</summary>
    private static double Round(double milliseconds) => double.IsNaN(milliseconds) ? -1 : Math.Round(milliseconds, 3);
}
