using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Text.Json;
using ThreadIterators.Samples.Chat;

namespace ThreadIterators.Benchmarks.ChatComparison;

/// <summary>
/// What <c>chat-server --probe true</c> measures inside the green server: for each receive that was pending when
/// started, the time from its task completing (on a thread-pool thread) to its reader running again on a worker; and
/// a heartbeat green thread's lateness, sleeping 10 ms again and again among the connections' threads. Any thread
/// adds; <see cref="Write"/> after <see cref="Stop"/>.
/// </summary>
internal sealed class ChatProbe
{
    private static readonly TimeSpan Period = TimeSpan.FromMilliseconds(10);

    private volatile bool _stopping;

    /// <summary>The OS thread the heartbeat first ran on, as <c>/proc/thread-self</c> names it (PID/task/TID); null off Linux.</summary>
    private string? _heartbeatThread;

    /// <summary>Gets the receives' completion-to-handled latencies, in microseconds.</summary>
    public LatencyHistogram Receives { get; } = new();

    /// <summary>Gets how much later than 10 ms each heartbeat woke, in microseconds.</summary>
    public LatencyHistogram Heartbeat { get; } = new();

    /// <summary>Gets the options that make a green server report its receives here.</summary>
    public ChatOptions Attach(ChatOptions options) => options with { ReceiveHandled = ticks => Receives.Add(Microseconds(ticks)) };

    /// <summary>Starts the heartbeat on <paramref name="server"/>'s scheduler.</summary>
    public void Start(ChatServer server) => server.Scheduler.Spawn(Beat(), "heartbeat");

    /// <summary>Ends the heartbeat at its next wake-up.</summary>
    public void Stop() => _stopping = true;

    /// <summary>Writes the figures as JSON fields (microseconds; the maxima within the histogram's 1.6%).</summary>
    public void Write(Utf8JsonWriter json)
    {
        json.WriteNumber("receives", Receives.Count);
        json.WriteNumber("receiveP50Us", Receives.Percentile(0.50));
        json.WriteNumber("receiveP99Us", Receives.Percentile(0.99));
        json.WriteNumber("receiveP999Us", Receives.Percentile(0.999));
        json.WriteNumber("receiveMaxUs", Receives.Percentile(1.0));
        json.WriteNumber("heartbeats", Heartbeat.Count);
        json.WriteNumber("heartbeatP50Us", Heartbeat.Percentile(0.50));
        json.WriteNumber("heartbeatP99Us", Heartbeat.Percentile(0.99));
        json.WriteNumber("heartbeatMaxUs", Heartbeat.Percentile(1.0));

        // Where else the time may go: collections (every thread stopped), and the heartbeat's worker waiting for a core.
        json.WriteNumber("gc0", GC.CollectionCount(0));
        json.WriteNumber("gc1", GC.CollectionCount(1));
        json.WriteNumber("gc2", GC.CollectionCount(2));
        json.WriteNumber("gcPauseMs", GC.GetTotalPauseDuration().TotalMilliseconds);
        if (_heartbeatThread is { } thread && File.Exists($"/proc/{thread}/schedstat"))
        {
            // On the CPU, and runnable but waiting for a CPU, since the thread started, in nanoseconds.
            var fields = File.ReadAllText($"/proc/{thread}/schedstat").Split(' ');
            json.WriteNumber("workerCpuMs", long.Parse(fields[0], CultureInfo.InvariantCulture) / 1e6);
            json.WriteNumber("workerRunDelayMs", long.Parse(fields[1], CultureInfo.InvariantCulture) / 1e6);
            foreach (var line in File.ReadLines($"/proc/{thread}/status"))
            {
                if (line.StartsWith("nonvoluntary_ctxt_switches:", StringComparison.Ordinal))
                {
                    json.WriteNumber("workerPreempted", long.Parse(line.AsSpan(line.IndexOf(':') + 1).Trim(), CultureInfo.InvariantCulture));
                }
            }
        }
    }

    private static long Microseconds(long ticks) => ticks * 1_000_000 / Stopwatch.Frequency;

    private IEnumerable<Event> Beat()
    {
        var sleep = Event.Sleep(Period);
        var periodTicks = (long)(Period.TotalSeconds * Stopwatch.Frequency);
        if (Directory.Exists("/proc/thread-self"))
        {
            _heartbeatThread = new DirectoryInfo("/proc/thread-self").LinkTarget;
        }

        while (!_stopping)
        {
            var start = Stopwatch.GetTimestamp();
            yield return sleep;
            Heartbeat.Add(Microseconds(Stopwatch.GetTimestamp() - start - periodTicks));
        }
    }
}
